// SPDX-License-Identifier: GPL-2.0-only
// K processes on CPU 0 pass a token round a ring of pipes (SCHED_OTHER, wall
// time): ns per hop. ./ring K HOPS [PAGES]: each also reads one byte of each
// of PAGES pages of its own a hop. gcc -O2 -o ring ring.c
#define _GNU_SOURCE
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/wait.h>
#include <sys/mman.h>

static double now(void){struct timespec t;clock_gettime(CLOCK_MONOTONIC,&t);return t.tv_sec*1e9+t.tv_nsec;}
int main(int argc,char**argv){
	int k=atoi(argv[1]); long hops=atol(argv[2]); int pages=argc>3?atoi(argv[3]):0;
	int (*p)[2]=malloc(sizeof(int[2])*k);
	cpu_set_t s;CPU_ZERO(&s);CPU_SET(0,&s);sched_setaffinity(0,sizeof s,&s);
	for(int i=0;i<k;i++) if(pipe(p[i])) return 1;
	long laps=hops/k;
	for(int i=1;i<k;i++){
		if(!fork()){
			char *buf = pages? mmap(0,pages*4096L,PROT_READ|PROT_WRITE,MAP_PRIVATE|MAP_ANONYMOUS,-1,0):0;
			if(pages) memset(buf,1,pages*4096L);
			char c; volatile long sum=0;
			for(long l=0;l<laps;l++){
				if(read(p[i][0],&c,1)!=1) _exit(1);
				for(int j=0;j<pages;j++) sum+=buf[j*4096L];
				if(write(p[(i+1)%k][1],&c,1)!=1) _exit(1);
			}
			_exit(0);
		}
	}
	char *buf = pages? mmap(0,pages*4096L,PROT_READ|PROT_WRITE,MAP_PRIVATE|MAP_ANONYMOUS,-1,0):0;
	if(pages) memset(buf,1,pages*4096L);
	char c='x'; volatile long sum=0;
	/* warm-up lap */
	double t0=0;
	for(long l=0;l<laps;l++){
		if(l==laps/10) t0=now();
		if(write(p[1%k][1],&c,1)!=1) return 1;
		if(read(p[0][0],&c,1)!=1) return 1;
		for(int j=0;j<pages;j++) sum+=buf[j*4096L];
	}
	double t1=now();
	while(wait(NULL)>0);
	printf("%d %d %.1f\n",k,pages,(t1-t0)/((laps-laps/10)*(double)k));
	return 0;
}
