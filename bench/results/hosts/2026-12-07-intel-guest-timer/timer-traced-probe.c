// SPDX-License-Identifier: GPL-2.0-only
/* timerfd_settime() 2,000 times at D us out on CPU 0, for tracing (README.md). gcc -O2; ./timer-traced-probe D */
#define _GNU_SOURCE
#include <sched.h>
#include <stdlib.h>
#include <sys/timerfd.h>
int main(int argc,char**argv){cpu_set_t c;CPU_ZERO(&c);CPU_SET(0,&c);sched_setaffinity(0,sizeof c,&c);
 int fd=timerfd_create(CLOCK_MONOTONIC,0); long d=atol(argv[1]); struct itimerspec a={.it_value={0,d*1000}};
 for(int i=0;i<2000;i++) timerfd_settime(fd,0,&a,NULL); return 0;}
