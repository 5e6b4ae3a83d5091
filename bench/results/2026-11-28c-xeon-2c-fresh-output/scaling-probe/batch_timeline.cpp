#include <pthread.h>
#include <sched.h>
#include <cryptaccel/cryptaccel.hpp>
#include "engine/thread_pool.hpp"
#include "cpu/cpu_hash.hpp"
#include <chrono>
#include <cstdio>
#include <thread>
#include <vector>
#include <algorithm>
namespace ca = cryptaccel;
static double now(){return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();}
int main(int argc,char**argv){
  size_t N=4096, L=64, runs=argc>1?atoi(argv[1]):8; std::vector<uint8_t> msgs(N*L,3), dig(N*32);
  std::vector<ca::HashJob> jobs(N); for(size_t i=0;i<N;++i) jobs[i]=ca::HashJob{{msgs.data()+i*L,L},{dig.data()+i*32,32}};
  struct Rec{double s,e; std::thread::id id;}; std::vector<Rec> rec(runs);
  size_t per=N/runs;
  ca::engine::parallel_for(2,2,[](size_t){});
  if(argc>2){ cpu_set_t cs; CPU_ZERO(&cs); CPU_SET(atoi(argv[2]),&cs); pthread_setaffinity_np(pthread_self(),sizeof cs,&cs);} 
  for(int rep=0;rep<300;rep++){
    for(auto&j:jobs) j.status=ca::JobStatus::pending;
    double t0=now();
    ca::engine::parallel_for(runs,2,[&](size_t i){ rec[i].s=now()-t0; ca::cpu::cpu_hash_batch(ca::HashAlgorithm::sha256, std::span(jobs).subspan(i*per,per)); rec[i].e=now()-t0; rec[i].id=std::this_thread::get_id();});
    double tot=now()-t0;
    if(rep>=295){ printf("total %.1f us:", tot*1e6); auto me=std::this_thread::get_id(); for(auto&r:rec) printf(" [%s %.0f-%.0f]", r.id==me?"C":"W", r.s*1e6, r.e*1e6); printf("\n"); }
  }
}
