#include <pthread.h>
#include <stdio.h>
#include <time.h>
#include <immintrin.h>
static double now(){struct timespec t;clock_gettime(CLOCK_MONOTONIC,&t);return t.tv_sec+t.tv_nsec*1e-9;}
volatile int sink;
__attribute__((target("avx512f"))) void* work(void* a){ __m512i x[8]; for(int i=0;i<8;i++) x[i]=_mm512_set1_epi32(i);
  __m512i k=_mm512_set1_epi32(3);
  for(long i=0;i<100000000;i++){ for(int j=0;j<8;j++){ x[j]=_mm512_ternarylogic_epi32(_mm512_ror_epi32(x[j],7),x[j],k,0x96);} __asm__ volatile("" : "+v"(x[0]),"+v"(x[1]),"+v"(x[2]),"+v"(x[3]),"+v"(x[4]),"+v"(x[5]),"+v"(x[6]),"+v"(x[7])); }
  int s=0; for(int j=0;j<8;j++) s+=_mm512_reduce_add_epi32(x[j]); sink=s; return 0;}
int main(){ for(int r=0;r<2;r++){ double t=now(); work(0); double t1=now()-t;
  pthread_t a,b; t=now(); pthread_create(&a,0,work,0); pthread_create(&b,0,work,0); pthread_join(a,0); pthread_join(b,0); double t2=now()-t;
  printf("avx512: 1 thread %.2fs, 2 threads (2x work) %.2fs -> scaling %.2fx\n", t1, t2, 2*t1/t2);} }
