$ collcalc sweep allgather -b 8 -e 1G -f 16 --gpus 8 --link nvlink4 --algo ring
all-gather sweep on 8 GPUs over nvlink4; per-direction bandwidth
      size (B)       size algorithm            steps    latency       time       algbw       busbw  dominant
             8        8 B ring                     7    14.0 us    14.0 us 5.71e-04 GB/s 5.00e-04 GB/s  latency
           128      128 B ring                     7    14.0 us    14.0 us 0.00914 GB/s 0.00800 GB/s  latency
          2048      2 KiB ring                     7    14.0 us    14.0 us  0.146 GB/s  0.128 GB/s  latency
         32768     32 KiB ring                     7    14.0 us    14.1 us   2.33 GB/s   2.04 GB/s  latency
        524288    512 KiB ring                     7    14.0 us    15.0 us   34.9 GB/s   30.5 GB/s  latency
       8388608      8 MiB ring                     7    14.0 us    30.3 us    277 GB/s    242 GB/s  bandwidth
     134217728    128 MiB ring                     7    14.0 us     275 us    488 GB/s    427 GB/s  bandwidth
$ collcalc sweep alltoall --sizes 1MB,1GB --gpus 16 --link nvlink4 --format csv
size_bytes,algorithm,steps,bytes_sent_per_gpu,latency_us,bandwidth_us,time_us,algbw_GBps,busbw_GBps,dominant
1000000,bruck,4,2000000,8.0000,4.4444,12.4444,80.3571,75.3348,latency
1000000000,pairwise,15,937500000,30.0000,2083.3333,2113.3333,473.1861,443.6120,bandwidth
$ collcalc broadcast --size 1GB --gpus 8 --link nvlink4
broadcast of 1.00 GB (1,000,000,000 bytes) on 8 GPUs over nvlink4
link nvlink4: 450 GB/s, alpha 2 us per step; per-direction bandwidth

algorithm           nccl  steps   sent/GPU   recv/GPU    latency  bandwidth       time       algbw       busbw  dominant
ring                 yes      7    1.00 GB    1.00 GB    14.0 us    2.22 ms    2.24 ms    447 GB/s    447 GB/s  bandwidth  <- fastest
binomial-tree          -      3    3.00 GB        0 B    6.00 us    6.67 ms    6.67 ms    150 GB/s    150 GB/s  bandwidth
scatter-allgather      -     10    1.75 GB     875 MB    20.0 us    3.89 ms    3.91 ms    256 GB/s    256 GB/s  bandwidth
binomial-tree: the busiest GPU moves 3.00 GB (0 B in + 3.00 GB out); every other GPU moves 1.00 GB (1.00 GB in + 0 B out)
$ collcalc reduce --size 1GB --gpus 6 --link pcie5 --format csv
op,algorithm,fastest,gpus,nodes,size_bytes,bw_basis,steps,bytes_sent_per_gpu,bytes_received_per_gpu,latency_us,bandwidth_us,time_us,algbw_GBps,busbw_GBps,dominant,layers,total_time_us,phases
reduce,ring,true,6,1,1000000000,per-direction,5,1000000000,1000000000,28.5000,15873.0159,15901.5159,62.8871,62.8871,bandwidth,1,15901.5159,pipelined chain reduce x5 on pcie5
reduce,binomial-tree,false,6,1,1000000000,per-direction,3,0,3000000000,17.1000,47619.0476,47636.1476,20.9925,20.9925,bandwidth,1,47636.1476,binomial reduce to root x3 on pcie5
reduce,rabenseifner,false,6,1,1000000000,per-direction,5,750000000,2500000000,28.5000,39682.5397,39711.0397,25.1819,25.1819,bandwidth,1,39711.0397,fold: extra ranks send to partners x1 on pcie5; reduce-scatter by recursive halving x2 on pcie5; binomial gather to root x2 on pcie5
$ collcalc reducescatter --size 1GB --gpus 6 --link nvlink4 --explain
reduce-scatter of 1.00 GB (1,000,000,000 bytes) on 6 GPUs over nvlink4
link nvlink4: 450 GB/s, alpha 2 us per step; per-direction bandwidth

algorithm           nccl  steps   sent/GPU   recv/GPU    latency  bandwidth       time       algbw       busbw  dominant
ring                 yes      5     833 MB     833 MB    10.0 us    1.85 ms    1.86 ms    537 GB/s    448 GB/s  bandwidth  <- fastest
recursive-halving      -      4     917 MB    1.75 GB    8.00 us    4.26 ms    4.27 ms    234 GB/s    195 GB/s  bandwidth

ring reduce-scatter:
  1. reduce-scatter on nvlink4
     latency:   5 steps x 2 us = 10.0 us
     bandwidth: max(833 MB out, 833 MB in) / 450 GB/s = 1.85 ms
  total: latency 10.0 us + bandwidth 1.85 ms = 1.86 ms (bandwidth dominates, 99%)
  algbw = 1.00 GB / 1.86 ms = 537 GB/s; busbw = algbw x 0.8333 = 448 GB/s

recursive-halving reduce-scatter:
  1. fold: extra ranks send to partners on nvlink4
     latency:   1 step x 2 us = 2.00 us
     bandwidth: max(0 B out, 1.00 GB in) / 450 GB/s = 2.22 ms
  2. recursive-halving reduce-scatter on nvlink4
     latency:   2 steps x 2 us = 4.00 us
     bandwidth: max(750 MB out, 750 MB in) / 450 GB/s = 1.67 ms
  3. unfold: partners send results back on nvlink4
     latency:   1 step x 2 us = 2.00 us
     bandwidth: max(167 MB out, 0 B in) / 450 GB/s = 370 us
  total: latency 8.00 us + bandwidth 4.26 ms = 4.27 ms (bandwidth dominates, 100%)
  algbw = 1.00 GB / 4.27 ms = 234 GB/s; busbw = algbw x 0.8333 = 195 GB/s
  note: p = 6 is not a power of two: the 2 extra ranks fold into partners first and get the result back last (2 extra steps), then the algorithm runs on p' = 4 ranks.
$ collcalc sendrecv --size 1GB --gpus 2 --link nvlink4 --format json
{"query":{"op":"sendrecv","size_bytes":1000000000,"gpus":2,"link":"nvlink4","link_bw_GBps":450,"link_alpha_us":2,"nvls":false,"sharp":false,"bw_basis":"per-direction","layers":1,"per_layer":1},"results":[{"algorithm":"direct","fastest":true,"in_nccl":true,"nodes":1,"steps":1,"bytes_sent_per_gpu":1000000000,"bytes_received_per_gpu":1000000000,"others_differ":false,"bytes_sent_other_gpu":1000000000,"bytes_received_other_gpu":1000000000,"latency_us":2,"bandwidth_us":2222.2222,"time_us":2224.2222,"algbw_GBps":449.5954,"busbw_factor":1,"busbw_GBps":449.5954,"dominant":"bandwidth","total_latency_us":2,"total_bandwidth_us":2222.2222,"total_time_us":2224.2222,"note":"","phases":[{"label":"send to next, receive from previous","link":"nvlink4","scope":"intra","stage":1,"steps":1,"alpha_us":2,"bytes_sent":1000000000,"bytes_received":1000000000,"bw_GBps":450,"efficiency":1,"latency_us":2,"bandwidth_us":2222.2222,"time_us":2224.2222,"note":""}]}]}
$ collcalc allgather --size 1 --gpus 1 --link nvlink4
all-gather of 1 B (1 bytes) on 1 GPU over nvlink4
link nvlink4: 450 GB/s, alpha 2 us per step; per-direction bandwidth

algorithm           nccl  steps   sent/GPU   recv/GPU    latency  bandwidth       time       algbw       busbw  dominant
ring                 yes      0        0 B        0 B       0 us       0 us       0 us      0 GB/s      0 GB/s  none  <- fastest
recursive-doubling     -      0        0 B        0 B       0 us       0 us       0 us      0 GB/s      0 GB/s  none
bruck                  -      0        0 B        0 B       0 us       0 us       0 us      0 GB/s      0 GB/s  none
$ collcalc ar --size 1MiB --gpus 8 --bw 400Gb/s --alpha 1.5us --algo ring --format csv
op,algorithm,fastest,gpus,nodes,size_bytes,bw_basis,steps,bytes_sent_per_gpu,bytes_received_per_gpu,latency_us,bandwidth_us,time_us,algbw_GBps,busbw_GBps,dominant,layers,total_time_us,phases
allreduce,ring,true,8,1,1048576,per-direction,14,1835008,1835008,21.0000,36.7002,57.7002,18.1728,31.8025,bandwidth,1,57.7002,reduce-scatter x7 on custom; all-gather x7 on custom
$ collcalc compare allgather --sizes 1K..1M --gpus 8 --link nvlink4
all-gather on 8 GPUs over nvlink4; per-direction bandwidth

      size  algorithm            steps   sent/GPU    latency  bandwidth       time  dominant   vs best
   1.02 kB  ring                     7      896 B    14.0 us    1.99 ns    14.0 us  latency      2.33x
            recursive-doubling       3      896 B    6.00 us    1.99 ns    6.00 us  latency      1.00x  <- fastest
            bruck                    3      896 B    6.00 us    1.99 ns    6.00 us  latency      1.00x
   2.05 kB  ring                     7    1.79 kB    14.0 us    3.98 ns    14.0 us  latency      2.33x
            recursive-doubling       3    1.79 kB    6.00 us    3.98 ns    6.00 us  latency      1.00x  <- fastest
            bruck                    3    1.79 kB    6.00 us    3.98 ns    6.00 us  latency      1.00x
   4.10 kB  ring                     7    3.58 kB    14.0 us    7.96 ns    14.0 us  latency      2.33x
            recursive-doubling       3    3.58 kB    6.00 us    7.96 ns    6.01 us  latency      1.00x  <- fastest
            bruck                    3    3.58 kB    6.00 us    7.96 ns    6.01 us  latency      1.00x
   8.19 kB  ring                     7    7.17 kB    14.0 us    15.9 ns    14.0 us  latency      2.33x
            recursive-doubling       3    7.17 kB    6.00 us    15.9 ns    6.02 us  latency      1.00x  <- fastest
            bruck                    3    7.17 kB    6.00 us    15.9 ns    6.02 us  latency      1.00x
   16.4 kB  ring                     7    14.3 kB    14.0 us    31.9 ns    14.0 us  latency      2.33x
            recursive-doubling       3    14.3 kB    6.00 us    31.9 ns    6.03 us  latency      1.00x  <- fastest
            bruck                    3    14.3 kB    6.00 us    31.9 ns    6.03 us  latency      1.00x
   32.8 kB  ring                     7    28.7 kB    14.0 us    63.7 ns    14.1 us  latency      2.32x
            recursive-doubling       3    28.7 kB    6.00 us    63.7 ns    6.06 us  latency      1.00x  <- fastest
            bruck                    3    28.7 kB    6.00 us    63.7 ns    6.06 us  latency      1.00x
   65.5 kB  ring                     7    57.3 kB    14.0 us     127 ns    14.1 us  latency      2.31x
            recursive-doubling       3    57.3 kB    6.00 us     127 ns    6.13 us  latency      1.00x  <- fastest
            bruck                    3    57.3 kB    6.00 us     127 ns    6.13 us  latency      1.00x
    131 kB  ring                     7     115 kB    14.0 us     255 ns    14.3 us  latency      2.28x
            recursive-doubling       3     115 kB    6.00 us     255 ns    6.25 us  latency      1.00x  <- fastest
            bruck                    3     115 kB    6.00 us     255 ns    6.25 us  latency      1.00x
    262 kB  ring                     7     229 kB    14.0 us     510 ns    14.5 us  latency      2.23x
            recursive-doubling       3     229 kB    6.00 us     510 ns    6.51 us  latency      1.00x  <- fastest
            bruck                    3     229 kB    6.00 us     510 ns    6.51 us  latency      1.00x
    524 kB  ring                     7     459 kB    14.0 us    1.02 us    15.0 us  latency      2.14x
            recursive-doubling       3     459 kB    6.00 us    1.02 us    7.02 us  latency      1.00x  <- fastest
            bruck                    3     459 kB    6.00 us    1.02 us    7.02 us  latency      1.00x
   1.05 MB  ring                     7     918 kB    14.0 us    2.04 us    16.0 us  latency      2.00x
            recursive-doubling       3     918 kB    6.00 us    2.04 us    8.04 us  latency      1.00x  <- fastest
            bruck                    3     918 kB    6.00 us    2.04 us    8.04 us  latency      1.00x

Crossovers (1 B to 1 TiB):
  none: recursive-doubling is fastest at every size
$ collcalc links --links examples/my-links.json --path nvlink-bridge2,roce400-measured
Bandwidth cliff, per-direction bandwidth:
  nvlink-bridge2    50.0 GB/s          -> roce400-measured 42.6 GB/s         1.17x  <- node boundary

GPU to GPU, inside the node (nvlink-bridge2) vs across nodes (roce400-measured): 2x headline, 1.17x per direction
$ collcalc allreduce --size 1GB --gpus 2 --link nvlink-bridge2 --links examples/my-links.json --algo ring --format csv
op,algorithm,fastest,gpus,nodes,size_bytes,bw_basis,steps,bytes_sent_per_gpu,bytes_received_per_gpu,latency_us,bandwidth_us,time_us,algbw_GBps,busbw_GBps,dominant,layers,total_time_us,phases
allreduce,ring,true,2,1,1000000000,per-direction,2,1000000000,1000000000,4.0000,20000.0000,20004.0000,49.9900,49.9900,bandwidth,1,20004.0000,reduce-scatter x1 on nvlink-bridge2; all-gather x1 on nvlink-bridge2
$ collcalc sweep allreduce -b 1 -e 18446744073709551615 -f 1024 --gpus 2 --link nvlink5 --format csv
size_bytes,algorithm,steps,bytes_sent_per_gpu,latency_us,bandwidth_us,time_us,algbw_GBps,busbw_GBps,dominant
1,recursive-doubling,1,1,2.0000,0.0000,2.0000,0.0005,0.0005,latency
1024,recursive-doubling,1,1024,2.0000,0.0011,2.0011,0.5117,0.5117,latency
1048576,recursive-doubling,1,1048576,2.0000,1.1651,3.1651,331.2948,331.2948,latency
1073741824,recursive-doubling,1,1073741824,2.0000,1193.0465,1195.0465,898.4938,898.4938,bandwidth
1099511627776,recursive-doubling,1,1099511627776,2.0000,1221679.5864,1221681.5864,899.9985,899.9985,bandwidth
1125899906842624,recursive-doubling,1,1125899906842624,2.0000,1250999896.4918,1250999898.4918,900.0000,900.0000,bandwidth
1152921504606846976,recursive-doubling,1,1152921504606846976,2.0000,1281023894007.6077,1281023894009.6077,900.0000,900.0000,bandwidth
18446744073709551615,recursive-doubling,1,18446744073709551616,2.0000,20496382304121.7227,20496382304123.7227,900.0000,900.0000,bandwidth
