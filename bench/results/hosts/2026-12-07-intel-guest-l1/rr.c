// SPDX-License-Identifier: GPL-2.0-only
// gcc -O2 -o rr rr.c; ./rr N D ROUNDS: one process on CPU 0 writes 100-byte messages to N unix stream sockets in turn, D each
// (N*D skbs in flight), then reads them back in turn; ns per write, per read
#define _GNU_SOURCE
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>
#include <sys/socket.h>
static double now(void){struct timespec t;clock_gettime(CLOCK_MONOTONIC,&t);return t.tv_sec*1e9+t.tv_nsec;}
int main(int argc,char**argv){
	int n=atoi(argv[1]), d=atoi(argv[2]), rounds=atoi(argv[3]);
	cpu_set_t s;CPU_ZERO(&s);CPU_SET(0,&s);sched_setaffinity(0,sizeof s,&s);
	int (*sv)[2]=malloc(sizeof(int[2])*n); char buf[100]={0};
	for(int i=0;i<n;i++) if(socketpair(AF_UNIX,SOCK_STREAM,0,sv[i])) return 1;
	double tw=0,tr=0; long ops=0;
	for(int r=0;r<rounds+1;r++){
		double t0=now();
		for(int k=0;k<d;k++) for(int i=0;i<n;i++) if(write(sv[i][0],buf,100)!=100) return 2;
		double t1=now();
		for(int k=0;k<d;k++) for(int i=0;i<n;i++) if(read(sv[i][1],buf,100)!=100) return 3;
		double t2=now();
		if(r){tw+=t1-t0;tr+=t2-t1;ops+=(long)n*d;}
	}
	printf("n=%3d d=%3d write %.0f read %.0f\n",n,d,tw/ops,tr/ops);
}
