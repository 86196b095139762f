// SPDX-License-Identifier: GPL-2.0-only
// A pointer chase in a random line order over a buffer of KB KiB: ns a load.
// gcc -O2 -o chase chase.c; taskset -c 0 ./chase KB
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
static double now(void){struct timespec t;clock_gettime(CLOCK_MONOTONIC,&t);return t.tv_sec*1e9+t.tv_nsec;}
int main(int argc,char**argv){
	size_t kb=atol(argv[1]); size_t n=kb*1024/64;
	char *buf=aligned_alloc(64,n*64); size_t *perm=malloc(n*sizeof(size_t));
	for(size_t i=0;i<n;i++)perm[i]=i;
	srand(1); for(size_t i=n-1;i>0;i--){size_t j=rand()%(i+1);size_t t=perm[i];perm[i]=perm[j];perm[j]=t;}
	for(size_t i=0;i<n;i++) *(void**)(buf+perm[i]*64)=buf+perm[(i+1)%n]*64;
	void *p=buf; for(size_t i=0;i<n*4;i++) p=*(void**)p;
	long iters=20000000; double t0=now();
	for(long i=0;i<iters;i++) p=*(void**)p;
	double t1=now(); printf("%zu KB: %.2f ns/load %p\n",kb,(t1-t0)/iters,p);
}
