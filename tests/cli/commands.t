$ collcalc sweep allgather -b 8 -e 1G -f 16 --gpus 8 --link nvlink4 --algo ring
all-gather sweep on 8 GPUs over nvlink4; per-direction bandwidth
algorithm: as named: ring
   size (B)     size  algorithm  nccl  steps  sent/GPU  recv/GPU  latency  bandwidth     time      algbw      busbw  dominant
          0      0 B  ring        yes      7       0 B       0 B  14.0 us       0 ps  14.0 us      0 B/s      0 B/s  latency
        128    128 B  ring        yes      7     112 B     112 B  14.0 us     249 ps  14.0 us  9.14 MB/s  8.00 MB/s  latency
      2,048    2 KiB  ring        yes      7   1.79 kB   1.79 kB  14.0 us    3.98 ns  14.0 us   146 MB/s   128 MB/s  latency
     32,768   32 KiB  ring        yes      7   28.7 kB   28.7 kB  14.0 us    63.7 ns  14.1 us  2.33 GB/s  2.04 GB/s  latency
    524,288  512 KiB  ring        yes      7    459 kB    459 kB  14.0 us    1.02 us  15.0 us  34.9 GB/s  30.5 GB/s  latency
  8,388,608    8 MiB  ring        yes      7   7.34 MB   7.34 MB  14.0 us    16.3 us  30.3 us   277 GB/s   242 GB/s  bandwidth
134,217,728  128 MiB  ring        yes      7    117 MB    117 MB  14.0 us     261 us   275 us   488 GB/s   427 GB/s  bandwidth
$ collcalc sweep alltoall --sizes 1MB,1GB --gpus 16 --link nvlink4 --format csv
size_bytes,count,type,redop,root,op,algorithm,fastest,in_nccl,gpus,nodes,bw_basis,steps,bytes_sent_per_gpu,bytes_received_per_gpu,others_differ,bytes_sent_other_gpu,bytes_received_other_gpu,latency_us,bandwidth_us,time_us,algbw_GBps,busbw_factor,busbw_GBps,dominant,layers,per_layer,total_latency_us,total_bandwidth_us,total_time_us,note,phases
999936,15624,float,none,-1,alltoall,pairwise,false,true,16,1,per-direction,15,937440,937440,false,937440,937440,30,2.0832,32.0832,31.16696588868941,0.9375,29.219030520646324,latency,1,1,30,2.0832,32.0832,,"[{""label"":""pairwise exchange"",""link"":""nvlink4"",""scope"":""intra"",""stage"":1,""steps"":15,""alpha_us"":2,""bytes_sent"":937440,""bytes_received"":937440,""bw_GBps"":450,""efficiency"":1,""latency_us"":30,""bandwidth_us"":2.0832,""time_us"":32.0832,""note"":""""}]"
1000000000,15625000,float,none,-1,alltoall,pairwise,true,true,16,1,per-direction,15,937500000,937500000,false,937500000,937500000,30,2083.3333333333335,2113.3333333333335,473.186119873817,0.9375,443.61198738170344,bandwidth,1,1,30,2083.3333333333335,2113.3333333333335,,"[{""label"":""pairwise exchange"",""link"":""nvlink4"",""scope"":""intra"",""stage"":1,""steps"":15,""alpha_us"":2,""bytes_sent"":937500000,""bytes_received"":937500000,""bw_GBps"":450,""efficiency"":1,""latency_us"":30,""bandwidth_us"":2083.3333333333335,""time_us"":2113.3333333333335,""note"":""""}]"
$ collcalc broadcast --size 1GB --gpus 8 --link nvlink4
broadcast of 1.00 GB (1,000,000,000 bytes) on 8 GPUs over nvlink4
link nvlink4: 450 GB/s, alpha 2.00 us per step; per-direction bandwidth

algorithm          nccl  steps  sent/GPU  recv/GPU  latency  bandwidth     time     algbw     busbw  dominant
ring                yes      7   1.00 GB   1.00 GB  14.0 us    2.22 ms  2.24 ms  447 GB/s  447 GB/s  bandwidth  <- fastest
binomial-tree         -      3   3.00 GB       0 B  6.00 us    6.67 ms  6.67 ms  150 GB/s  150 GB/s  bandwidth
scatter-allgather     -     10   1.75 GB    875 MB  20.0 us    3.89 ms  3.91 ms  256 GB/s  256 GB/s  bandwidth
binomial-tree: the busiest GPU moves 3.00 GB (0 B in + 3.00 GB out); every other GPU moves 1.00 GB (1.00 GB in + 0 B out)
$ collcalc reduce --size 1GB --gpus 6 --link pcie5 --format csv
size_bytes,op,algorithm,fastest,in_nccl,gpus,nodes,bw_basis,steps,bytes_sent_per_gpu,bytes_received_per_gpu,others_differ,bytes_sent_other_gpu,bytes_received_other_gpu,latency_us,bandwidth_us,time_us,algbw_GBps,busbw_factor,busbw_GBps,dominant,layers,per_layer,total_latency_us,total_bandwidth_us,total_time_us,note,phases
1000000000,reduce,ring,true,true,6,1,per-direction,5,1000000000,1000000000,false,1000000000,1000000000,28.5,15873.015873015873,15901.515873015873,62.88708623666207,1,62.88708623666207,bandwidth,1,1,28.5,15873.015873015873,15901.515873015873,Pipelined chain: chunks stream down p-1 hops; each middle GPU receives and forwards S once.,"[{""label"":""pipelined chain reduce"",""link"":""pcie5"",""scope"":""intra"",""stage"":1,""steps"":5,""alpha_us"":5.7,""bytes_sent"":1000000000,""bytes_received"":1000000000,""bw_GBps"":63,""efficiency"":1,""latency_us"":28.5,""bandwidth_us"":15873.015873015873,""time_us"":15901.515873015873,""note"":""""}]"
1000000000,reduce,binomial-tree,false,false,6,1,per-direction,3,0,3000000000,true,1000000000,0,17.1,47619.04761904762,47636.14761904762,20.992461607036912,1,20.992461607036912,bandwidth,1,1,17.1,47619.04761904762,47636.14761904762,The root is the busiest GPU: it receives S in each of ceil(lg p) = 3 rounds.,"[{""label"":""binomial reduce to root"",""link"":""pcie5"",""scope"":""intra"",""stage"":1,""steps"":3,""alpha_us"":5.7,""bytes_sent"":0,""bytes_received"":3000000000,""bw_GBps"":63,""efficiency"":1,""latency_us"":17.1,""bandwidth_us"":47619.04761904762,""time_us"":47636.14761904762,""note"":""""}]"
1000000000,reduce,rabenseifner,false,false,6,1,per-direction,5,750000000,2500000000,false,750000000,2500000000,28.5,39682.53968253968,39711.03968253968,25.181914349114468,1,25.181914349114468,bandwidth,1,1,28.5,39682.53968253968,39711.03968253968,"p = 6 is not a power of two: the 2 extra ranks fold into partners first (1 extra step; the result stays at the root), then the algorithm runs on p' = 4 ranks.","[{""label"":""fold: extra ranks send to partners"",""link"":""pcie5"",""scope"":""intra"",""stage"":1,""steps"":1,""alpha_us"":5.7,""bytes_sent"":0,""bytes_received"":1000000000,""bw_GBps"":63,""efficiency"":1,""latency_us"":5.7,""bandwidth_us"":15873.015873015873,""time_us"":15878.715873015874,""note"":""""},{""label"":""reduce-scatter by recursive halving"",""link"":""pcie5"",""scope"":""intra"",""stage"":2,""steps"":2,""alpha_us"":5.7,""bytes_sent"":750000000,""bytes_received"":750000000,""bw_GBps"":63,""efficiency"":1,""latency_us"":11.4,""bandwidth_us"":11904.761904761905,""time_us"":11916.161904761904,""note"":""""},{""label"":""binomial gather to root"",""link"":""pcie5"",""scope"":""intra"",""stage"":3,""steps"":2,""alpha_us"":5.7,""bytes_sent"":0,""bytes_received"":750000000,""bw_GBps"":63,""efficiency"":1,""latency_us"":11.4,""bandwidth_us"":11904.761904761905,""time_us"":11916.161904761904,""note"":""""}]"
$ collcalc reducescatter --size 1GB --gpus 6 --link nvlink4 --explain
reduce-scatter of 1.00 GB (1,000,000,000 bytes) on 6 GPUs over nvlink4
link nvlink4: 450 GB/s, alpha 2.00 us per step; per-direction bandwidth

algorithm          nccl  steps  sent/GPU  recv/GPU  latency  bandwidth     time     algbw     busbw  dominant
ring                yes      5    833 MB    833 MB  10.0 us    1.85 ms  1.86 ms  537 GB/s  448 GB/s  bandwidth  <- fastest
recursive-halving     -      4    917 MB   1.75 GB  8.00 us    4.26 ms  4.27 ms  234 GB/s  195 GB/s  bandwidth

ring reduce-scatter:
  1. reduce-scatter on nvlink4
     latency:   5 steps x 2.00 us = 10.0 us
     bandwidth: max(833 MB out, 833 MB in) / 450 GB/s = 1.85 ms
  total: latency 10.0 us + bandwidth 1.85 ms = 1.86 ms (bandwidth dominates, 99%)
  algbw = 1.00 GB / 1.86 ms = 537 GB/s; busbw = algbw x 0.8333 = 448 GB/s

recursive-halving reduce-scatter:
  1. fold: extra ranks send to partners on nvlink4
     latency:   1 step x 2.00 us = 2.00 us
     bandwidth: max(0 B out, 1.00 GB in) / 450 GB/s = 2.22 ms
  2. recursive-halving reduce-scatter on nvlink4
     latency:   2 steps x 2.00 us = 4.00 us
     bandwidth: max(750 MB out, 750 MB in) / 450 GB/s = 1.67 ms
  3. unfold: partners send results back on nvlink4
     latency:   1 step x 2.00 us = 2.00 us
     bandwidth: max(167 MB out, 0 B in) / 450 GB/s = 370 us
  total: latency 8.00 us + bandwidth 4.26 ms = 4.27 ms (bandwidth dominates, 100%)
  algbw = 1.00 GB / 4.27 ms = 234 GB/s; busbw = algbw x 0.8333 = 195 GB/s
  note: p = 6 is not a power of two: the 2 extra ranks fold into partners first and get the result back last (2 extra steps), then the algorithm runs on p' = 4 ranks.
$ collcalc sendrecv --size 1GB --gpus 2 --link nvlink4 --format json
{"schema_version":1,"command":"sendrecv","query":{"op":"sendrecv","size_bytes":1000000000,"gpus":2,"link":"nvlink4","link_bw_GBps":450,"link_alpha_us":2,"nvls":false,"sharp":false,"bw_basis":"per-direction","layers":1,"per_layer":1},"results":[{"size_bytes":1000000000,"op":"sendrecv","algorithm":"direct","fastest":true,"in_nccl":true,"gpus":2,"nodes":1,"bw_basis":"per-direction","steps":1,"bytes_sent_per_gpu":1000000000,"bytes_received_per_gpu":1000000000,"others_differ":false,"bytes_sent_other_gpu":1000000000,"bytes_received_other_gpu":1000000000,"latency_us":2,"bandwidth_us":2222.222222222222,"time_us":2224.222222222222,"algbw_GBps":449.595364172245,"busbw_factor":1,"busbw_GBps":449.595364172245,"dominant":"bandwidth","layers":1,"per_layer":1,"total_latency_us":2,"total_bandwidth_us":2222.222222222222,"total_time_us":2224.222222222222,"note":"","phases":[{"label":"send to next, receive from previous","link":"nvlink4","scope":"intra","stage":1,"steps":1,"alpha_us":2,"bytes_sent":1000000000,"bytes_received":1000000000,"bw_GBps":450,"efficiency":1,"latency_us":2,"bandwidth_us":2222.222222222222,"time_us":2224.222222222222,"note":""}]}],"notes":[]}
$ collcalc allgather --size 1 --gpus 1 --link nvlink4
all-gather of 1 B (1 bytes) on 1 GPU over nvlink4
link nvlink4: 450 GB/s, alpha 2.00 us per step; per-direction bandwidth

algorithm           nccl  steps  sent/GPU  recv/GPU  latency  bandwidth  time  algbw  busbw  dominant
ring                 yes      0       0 B       0 B     0 ps       0 ps  0 ps  0 B/s  0 B/s  none      <- fastest
recursive-doubling     -      0       0 B       0 B     0 ps       0 ps  0 ps  0 B/s  0 B/s  none
bruck                  -      0       0 B       0 B     0 ps       0 ps  0 ps  0 B/s  0 B/s  none
$ collcalc ar --size 1MiB --gpus 8 --bw 400Gb/s --alpha 1.5us --algo ring --format csv
size_bytes,op,algorithm,fastest,in_nccl,gpus,nodes,bw_basis,steps,bytes_sent_per_gpu,bytes_received_per_gpu,others_differ,bytes_sent_other_gpu,bytes_received_other_gpu,latency_us,bandwidth_us,time_us,algbw_GBps,busbw_factor,busbw_GBps,dominant,layers,per_layer,total_latency_us,total_bandwidth_us,total_time_us,note,phases
1048576,allreduce,ring,true,true,8,1,per-direction,14,1835008,1835008,false,1835008,1835008,21,36.70016,57.70016,18.17284388812787,1.75,31.80247680422377,bandwidth,1,1,21,36.70016,57.70016,,"[{""label"":""reduce-scatter"",""link"":""custom"",""scope"":""intra"",""stage"":1,""steps"":7,""alpha_us"":1.5,""bytes_sent"":917504,""bytes_received"":917504,""bw_GBps"":50,""efficiency"":1,""latency_us"":10.5,""bandwidth_us"":18.35008,""time_us"":28.85008,""note"":""""},{""label"":""all-gather"",""link"":""custom"",""scope"":""intra"",""stage"":2,""steps"":7,""alpha_us"":1.5,""bytes_sent"":917504,""bytes_received"":917504,""bw_GBps"":50,""efficiency"":1,""latency_us"":10.5,""bandwidth_us"":18.35008,""time_us"":28.85008,""note"":""""}]"
$ collcalc compare allgather --sizes 1K..1M --gpus 8 --link nvlink4
all-gather on 8 GPUs over nvlink4; per-direction bandwidth

   size  algorithm           nccl  steps  sent/GPU  latency  bandwidth     time      busbw  dominant  vs best
1.02 kB  ring                 yes      7     896 B  14.0 us    1.99 ns  14.0 us  64.0 MB/s  latency     2.33x
         recursive-doubling     -      3     896 B  6.00 us    1.99 ns  6.00 us   149 MB/s  latency     1.00x  <- fastest
         bruck                  -      3     896 B  6.00 us    1.99 ns  6.00 us   149 MB/s  latency     1.00x
2.05 kB  ring                 yes      7   1.79 kB  14.0 us    3.98 ns  14.0 us   128 MB/s  latency     2.33x
         recursive-doubling     -      3   1.79 kB  6.00 us    3.98 ns  6.00 us   298 MB/s  latency     1.00x  <- fastest
         bruck                  -      3   1.79 kB  6.00 us    3.98 ns  6.00 us   298 MB/s  latency     1.00x
4.10 kB  ring                 yes      7   3.58 kB  14.0 us    7.96 ns  14.0 us   256 MB/s  latency     2.33x
         recursive-doubling     -      3   3.58 kB  6.00 us    7.96 ns  6.01 us   597 MB/s  latency     1.00x  <- fastest
         bruck                  -      3   3.58 kB  6.00 us    7.96 ns  6.01 us   597 MB/s  latency     1.00x
8.19 kB  ring                 yes      7   7.17 kB  14.0 us    15.9 ns  14.0 us   511 MB/s  latency     2.33x
         recursive-doubling     -      3   7.17 kB  6.00 us    15.9 ns  6.02 us  1.19 GB/s  latency     1.00x  <- fastest
         bruck                  -      3   7.17 kB  6.00 us    15.9 ns  6.02 us  1.19 GB/s  latency     1.00x
16.4 kB  ring                 yes      7   14.3 kB  14.0 us    31.9 ns  14.0 us  1.02 GB/s  latency     2.33x
         recursive-doubling     -      3   14.3 kB  6.00 us    31.9 ns  6.03 us  2.38 GB/s  latency     1.00x  <- fastest
         bruck                  -      3   14.3 kB  6.00 us    31.9 ns  6.03 us  2.38 GB/s  latency     1.00x
32.8 kB  ring                 yes      7   28.7 kB  14.0 us    63.7 ns  14.1 us  2.04 GB/s  latency     2.32x
         recursive-doubling     -      3   28.7 kB  6.00 us    63.7 ns  6.06 us  4.73 GB/s  latency     1.00x  <- fastest
         bruck                  -      3   28.7 kB  6.00 us    63.7 ns  6.06 us  4.73 GB/s  latency     1.00x
65.5 kB  ring                 yes      7   57.3 kB  14.0 us     127 ns  14.1 us  4.06 GB/s  latency     2.31x
         recursive-doubling     -      3   57.3 kB  6.00 us     127 ns  6.13 us  9.36 GB/s  latency     1.00x  <- fastest
         bruck                  -      3   57.3 kB  6.00 us     127 ns  6.13 us  9.36 GB/s  latency     1.00x
 131 kB  ring                 yes      7    115 kB  14.0 us     255 ns  14.3 us  8.05 GB/s  latency     2.28x
         recursive-doubling     -      3    115 kB  6.00 us     255 ns  6.25 us  18.3 GB/s  latency     1.00x  <- fastest
         bruck                  -      3    115 kB  6.00 us     255 ns  6.25 us  18.3 GB/s  latency     1.00x
 262 kB  ring                 yes      7    229 kB  14.0 us     510 ns  14.5 us  15.8 GB/s  latency     2.23x
         recursive-doubling     -      3    229 kB  6.00 us     510 ns  6.51 us  35.2 GB/s  latency     1.00x  <- fastest
         bruck                  -      3    229 kB  6.00 us     510 ns  6.51 us  35.2 GB/s  latency     1.00x
 524 kB  ring                 yes      7    459 kB  14.0 us    1.02 us  15.0 us  30.5 GB/s  latency     2.14x
         recursive-doubling     -      3    459 kB  6.00 us    1.02 us  7.02 us  65.4 GB/s  latency     1.00x  <- fastest
         bruck                  -      3    459 kB  6.00 us    1.02 us  7.02 us  65.4 GB/s  latency     1.00x
1.05 MB  ring                 yes      7    918 kB  14.0 us    2.04 us  16.0 us  57.2 GB/s  latency     2.00x
         recursive-doubling     -      3    918 kB  6.00 us    2.04 us  8.04 us   114 GB/s  latency     1.00x  <- fastest
         bruck                  -      3    918 kB  6.00 us    2.04 us  8.04 us   114 GB/s  latency     1.00x

Crossovers (1 B to 1 TiB):
  none: recursive-doubling is fastest at every size
$ collcalc links --links examples/my-links.json --path nvlink-bridge2,roce400-measured
Bandwidth cliff, per-direction bandwidth:
from            bandwidth  to                bandwidth  ratio
nvlink-bridge2  50.0 GB/s  roce400-measured  42.6 GB/s  1.17x  <- node boundary

GPU to GPU, inside the node (nvlink-bridge2) vs across nodes (roce400-measured): 2x headline, 1.17x per direction
[stderr] collcalc links: note: examples/my-links.json replaces the built-in link nvlink-bridge2
$ collcalc allreduce --size 1GB --gpus 2 --link nvlink-bridge2 --links examples/my-links.json --algo ring --format csv
size_bytes,op,algorithm,fastest,in_nccl,gpus,nodes,bw_basis,steps,bytes_sent_per_gpu,bytes_received_per_gpu,others_differ,bytes_sent_other_gpu,bytes_received_other_gpu,latency_us,bandwidth_us,time_us,algbw_GBps,busbw_factor,busbw_GBps,dominant,layers,per_layer,total_latency_us,total_bandwidth_us,total_time_us,note,phases
1000000000,allreduce,ring,true,true,2,1,per-direction,2,1000000000,1000000000,false,1000000000,1000000000,4,20000,20004,49.99000199960008,1,49.99000199960008,bandwidth,1,1,4,20000,20004,,"[{""label"":""reduce-scatter"",""link"":""nvlink-bridge2"",""scope"":""intra"",""stage"":1,""steps"":1,""alpha_us"":2,""bytes_sent"":500000000,""bytes_received"":500000000,""bw_GBps"":50,""efficiency"":1,""latency_us"":2,""bandwidth_us"":10000,""time_us"":10002,""note"":""""},{""label"":""all-gather"",""link"":""nvlink-bridge2"",""scope"":""intra"",""stage"":2,""steps"":1,""alpha_us"":2,""bytes_sent"":500000000,""bytes_received"":500000000,""bw_GBps"":50,""efficiency"":1,""latency_us"":2,""bandwidth_us"":10000,""time_us"":10002,""note"":""""}]"
[stderr] collcalc allreduce: note: examples/my-links.json replaces the built-in link nvlink-bridge2
$ collcalc sweep allreduce -b 1 -e 18446744073709551615 -f 1024 --gpus 2 --link nvlink5 --format csv
size_bytes,count,type,redop,root,op,algorithm,fastest,in_nccl,gpus,nodes,bw_basis,steps,bytes_sent_per_gpu,bytes_received_per_gpu,others_differ,bytes_sent_other_gpu,bytes_received_other_gpu,latency_us,bandwidth_us,time_us,algbw_GBps,busbw_factor,busbw_GBps,dominant,layers,per_layer,total_latency_us,total_bandwidth_us,total_time_us,note,phases
0,0,float,sum,-1,allreduce,ring,false,true,2,1,per-direction,2,0,0,false,0,0,4,0,4,0,1,0,latency,1,1,4,0,4,,"[{""label"":""reduce-scatter"",""link"":""nvlink5"",""scope"":""intra"",""stage"":1,""steps"":1,""alpha_us"":2,""bytes_sent"":0,""bytes_received"":0,""bw_GBps"":900,""efficiency"":1,""latency_us"":2,""bandwidth_us"":0,""time_us"":2,""note"":""""},{""label"":""all-gather"",""link"":""nvlink5"",""scope"":""intra"",""stage"":2,""steps"":1,""alpha_us"":2,""bytes_sent"":0,""bytes_received"":0,""bw_GBps"":900,""efficiency"":1,""latency_us"":2,""bandwidth_us"":0,""time_us"":2,""note"":""""}]"
1024,256,float,sum,-1,allreduce,ring,false,true,2,1,per-direction,2,1024,1024,false,1024,1024,4,0.0011377777777777777,4.001137777777778,0.25592720292894466,1,0.25592720292894466,latency,1,1,4,0.0011377777777777777,4.001137777777778,,"[{""label"":""reduce-scatter"",""link"":""nvlink5"",""scope"":""intra"",""stage"":1,""steps"":1,""alpha_us"":2,""bytes_sent"":512,""bytes_received"":512,""bw_GBps"":900,""efficiency"":1,""latency_us"":2,""bandwidth_us"":0.0005688888888888889,""time_us"":2.000568888888889,""note"":""""},{""label"":""all-gather"",""link"":""nvlink5"",""scope"":""intra"",""stage"":2,""steps"":1,""alpha_us"":2,""bytes_sent"":512,""bytes_received"":512,""bw_GBps"":900,""efficiency"":1,""latency_us"":2,""bandwidth_us"":0.0005688888888888889,""time_us"":2.000568888888889,""note"":""""}]"
1048576,262144,float,sum,-1,allreduce,ring,false,true,2,1,per-direction,2,1048576,1048576,false,1048576,1048576,4,1.1650844444444444,5.165084444444444,203.0123633560041,1,203.0123633560041,latency,1,1,4,1.1650844444444444,5.165084444444444,,"[{""label"":""reduce-scatter"",""link"":""nvlink5"",""scope"":""intra"",""stage"":1,""steps"":1,""alpha_us"":2,""bytes_sent"":524288,""bytes_received"":524288,""bw_GBps"":900,""efficiency"":1,""latency_us"":2,""bandwidth_us"":0.5825422222222222,""time_us"":2.582542222222222,""note"":""""},{""label"":""all-gather"",""link"":""nvlink5"",""scope"":""intra"",""stage"":2,""steps"":1,""alpha_us"":2,""bytes_sent"":524288,""bytes_received"":524288,""bw_GBps"":900,""efficiency"":1,""latency_us"":2,""bandwidth_us"":0.5825422222222222,""time_us"":2.582542222222222,""note"":""""}]"
1073741824,268435456,float,sum,-1,allreduce,ring,false,true,2,1,per-direction,2,1073741824,1073741824,false,1073741824,1073741824,4,1193.046471111111,1197.046471111111,896.992597959327,1,896.992597959327,bandwidth,1,1,4,1193.046471111111,1197.046471111111,,"[{""label"":""reduce-scatter"",""link"":""nvlink5"",""scope"":""intra"",""stage"":1,""steps"":1,""alpha_us"":2,""bytes_sent"":536870912,""bytes_received"":536870912,""bw_GBps"":900,""efficiency"":1,""latency_us"":2,""bandwidth_us"":596.5232355555555,""time_us"":598.5232355555555,""note"":""""},{""label"":""all-gather"",""link"":""nvlink5"",""scope"":""intra"",""stage"":2,""steps"":1,""alpha_us"":2,""bytes_sent"":536870912,""bytes_received"":536870912,""bw_GBps"":900,""efficiency"":1,""latency_us"":2,""bandwidth_us"":596.5232355555555,""time_us"":598.5232355555555,""note"":""""}]"
1099511627776,274877906944,float,sum,-1,allreduce,ring,false,true,2,1,per-direction,2,1099511627776,1099511627776,false,1099511627776,1099511627776,4,1221679.5864177777,1221683.5864177777,899.9970532468144,1,899.9970532468144,bandwidth,1,1,4,1221679.5864177777,1221683.5864177777,,"[{""label"":""reduce-scatter"",""link"":""nvlink5"",""scope"":""intra"",""stage"":1,""steps"":1,""alpha_us"":2,""bytes_sent"":549755813888,""bytes_received"":549755813888,""bw_GBps"":900,""efficiency"":1,""latency_us"":2,""bandwidth_us"":610839.7932088888,""time_us"":610841.7932088888,""note"":""""},{""label"":""all-gather"",""link"":""nvlink5"",""scope"":""intra"",""stage"":2,""steps"":1,""alpha_us"":2,""bytes_sent"":549755813888,""bytes_received"":549755813888,""bw_GBps"":900,""efficiency"":1,""latency_us"":2,""bandwidth_us"":610839.7932088888,""time_us"":610841.7932088888,""note"":""""}]"
1125899906842624,281474976710656,float,sum,-1,allreduce,ring,false,true,2,1,per-direction,2,1125899906842624,1125899906842624,false,1125899906842624,1125899906842624,4,1250999896.4918044,1250999900.4918044,899.9999971223019,1,899.9999971223019,bandwidth,1,1,4,1250999896.4918044,1250999900.4918044,,"[{""label"":""reduce-scatter"",""link"":""nvlink5"",""scope"":""intra"",""stage"":1,""steps"":1,""alpha_us"":2,""bytes_sent"":562949953421312,""bytes_received"":562949953421312,""bw_GBps"":900,""efficiency"":1,""latency_us"":2,""bandwidth_us"":625499948.2459022,""time_us"":625499950.2459022,""note"":""""},{""label"":""all-gather"",""link"":""nvlink5"",""scope"":""intra"",""stage"":2,""steps"":1,""alpha_us"":2,""bytes_sent"":562949953421312,""bytes_received"":562949953421312,""bw_GBps"":900,""efficiency"":1,""latency_us"":2,""bandwidth_us"":625499948.2459022,""time_us"":625499950.2459022,""note"":""""}]"
1152921504606846976,288230376151711744,float,sum,-1,allreduce,ring,false,true,2,1,per-direction,2,1.152921504606847e+18,1.152921504606847e+18,false,1.152921504606847e+18,1.152921504606847e+18,4,1281023894007.6077,1281023894011.6077,899.9999999971898,1,899.9999999971898,bandwidth,1,1,4,1281023894007.6077,1281023894011.6077,,"[{""label"":""reduce-scatter"",""link"":""nvlink5"",""scope"":""intra"",""stage"":1,""steps"":1,""alpha_us"":2,""bytes_sent"":5.764607523034235e+17,""bytes_received"":5.764607523034235e+17,""bw_GBps"":900,""efficiency"":1,""latency_us"":2,""bandwidth_us"":640511947003.8038,""time_us"":640511947005.8038,""note"":""""},{""label"":""all-gather"",""link"":""nvlink5"",""scope"":""intra"",""stage"":2,""steps"":1,""alpha_us"":2,""bytes_sent"":5.764607523034235e+17,""bytes_received"":5.764607523034235e+17,""bw_GBps"":900,""efficiency"":1,""latency_us"":2,""bandwidth_us"":640511947003.8038,""time_us"":640511947005.8038,""note"":""""}]"
-4,4611686018427387903,float,sum,-1,allreduce,ring,false,true,2,1,per-direction,2,1.8446744073709552e+19,1.8446744073709552e+19,false,1.8446744073709552e+19,1.8446744073709552e+19,4,20496382304121.723,20496382304125.723,899.9999999998244,1,899.9999999998244,bandwidth,1,1,4,20496382304121.723,20496382304125.723,,"[{""label"":""reduce-scatter"",""link"":""nvlink5"",""scope"":""intra"",""stage"":1,""steps"":1,""alpha_us"":2,""bytes_sent"":9.223372036854776e+18,""bytes_received"":9.223372036854776e+18,""bw_GBps"":900,""efficiency"":1,""latency_us"":2,""bandwidth_us"":10248191152060.861,""time_us"":10248191152062.861,""note"":""""},{""label"":""all-gather"",""link"":""nvlink5"",""scope"":""intra"",""stage"":2,""steps"":1,""alpha_us"":2,""bytes_sent"":9.223372036854776e+18,""bytes_received"":9.223372036854776e+18,""bw_GBps"":900,""efficiency"":1,""latency_us"":2,""bandwidth_us"":10248191152060.861,""time_us"":10248191152062.861,""note"":""""}]"
