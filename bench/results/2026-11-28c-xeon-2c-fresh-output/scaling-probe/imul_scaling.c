#include <pthread.h>
#include <stdio.h>
#include <time.h>
#include <stdint.h>
static double now(){struct timespec t;clock_gettime(CLOCK_MONOTONIC,&t);return t.tv_sec+t.tv_nsec*1e-9;}
volatile uint64_t sink;
void* work(void* a){ uint64_t x0=1,x1=2,x2=3,x3=4,x4=5,x5=6,x6=7,x7=8; 
  for(long i=0;i<200000000;i++){ x0*=0x9E3779B97F4A7C15ull; x1*=0x9E3779B97F4A7C15ull; x2*=0x9E3779B97F4A7C15ull; x3*=0x9E3779B97F4A7C15ull; x4*=3; x5*=5; x6*=7; x7*=9; __asm__ volatile("" : "+r"(x0),"+r"(x1),"+r"(x2),"+r"(x3),"+r"(x4),"+r"(x5),"+r"(x6),"+r"(x7)); }
  sink=x0+x1+x2+x3+x4+x5+x6+x7; return 0;}
int main(){ for(int r=0;r<2;r++){ double t=now(); work(0); double t1=now()-t;
  pthread_t a,b; t=now(); pthread_create(&a,0,work,0); pthread_create(&b,0,work,0); pthread_join(a,0); pthread_join(b,0); double t2=now()-t;
  printf("1 thread %.2fs, 2 threads (2x work) %.2fs -> scaling %.2fx\n", t1, t2, 2*t1/t2);} }
