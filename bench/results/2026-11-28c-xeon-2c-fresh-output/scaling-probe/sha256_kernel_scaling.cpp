#include "cpu/hash_lanes.hpp"
#include <chrono>
#include <cstdio>
#include <thread>
#include <vector>
namespace ca = cryptaccel;
static double now(){return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();}
void work(int iters, const ca::cpu::LaneKernel* k){ alignas(64) uint8_t st[1024]={0}; std::vector<uint8_t> m(16*64*4, 1); const uint8_t* in[16]; for(int j=0;j<16;j++) in[j]=m.data()+j*256; for(int i=0;i<iters;i++) k->blocks(st,in,4,64);} 
int main(){
  for (auto* k : {&ca::cpu::sha256_avx512_x16_kernel(), &ca::cpu::sha256_avx2_x8_kernel(), &ca::cpu::sha256_shani_x2_kernel()}) {
  for(int r=0;r<2;r++){ int it=100000/ (k->lanes==16?1:(k->lanes==8?1:1)); double t=now(); work(it,k); double t1=now()-t;
    t=now(); std::thread a(work,it,k), b(work,it,k); a.join(); b.join(); double t2=now()-t;
    printf("%s: 1 thread %.3fs, 2 threads %.3fs -> %.2fx\n", k->name, t1, t2, 2*t1/t2);} }
}
