$ collcalc allreduce --size 100MB --gpus 8 --link ib-ndr --algo ring --bw-basis headline --layers 80
all-reduce of 100 MB (100,000,000 bytes) on 8 GPUs over ib-ndr
link ib-ndr: 50.0 GB/s, alpha 14 us per step; headline bandwidth (as vendors quote it: NVLink counts both directions)

algorithm           nccl  steps   sent/GPU   recv/GPU    latency  bandwidth       time       algbw       busbw  dominant
ring                 yes     14     175 MB     175 MB     196 us    3.50 ms    3.70 ms   27.1 GB/s   47.3 GB/s  bandwidth

x 80 (80 layers x 1 per layer):
ring                latency 15.7 ms + bandwidth 280 ms = 296 ms
$ collcalc allreduce --size 100MB --gpus 32 --link nvlink5 --algo ring --bw-basis headline --format csv
op,algorithm,fastest,gpus,nodes,size_bytes,bw_basis,steps,bytes_sent_per_gpu,bytes_received_per_gpu,latency_us,bandwidth_us,time_us,algbw_GBps,busbw_GBps,dominant,layers,total_time_us,phases
allreduce,ring,true,32,1,100000000,headline,62,193750000,193750000,124.0000,107.6389,231.6389,431.7064,836.4312,latency,1,231.6389,reduce-scatter x31 on nvlink5; all-gather x31 on nvlink5
$ collcalc compare allreduce --gpus 32 --link nvlink5 --algo ring --bw-basis headline --format csv
size_bytes,algorithm,fastest,steps,bytes_sent_per_gpu,latency_us,bandwidth_us,time_us,algbw_GBps,busbw_GBps,dominant,time_vs_fastest
64000,ring,true,62,124000,124.0000,0.0689,124.0689,0.5158,0.9994,latency,1.0000
1000000,ring,true,62,1937500,124.0000,1.0764,125.0764,7.9951,15.4905,latency,1.0000
100000000,ring,true,62,193750000,124.0000,107.6389,231.6389,431.7064,836.4312,latency,1.0000
1000000000,ring,true,62,1937500000,124.0000,1076.3889,1200.3889,833.0634,1614.0603,bandwidth,1.0000
$ collcalc allreduce --size 64KB --gpus 32 --link nvlink5 --algo tree --bw-basis headline --format csv
op,algorithm,fastest,gpus,nodes,size_bytes,bw_basis,steps,bytes_sent_per_gpu,bytes_received_per_gpu,latency_us,bandwidth_us,time_us,algbw_GBps,busbw_GBps,dominant,layers,total_time_us,phases
allreduce,tree,true,32,1,64000,headline,10,124000,124000,20.0000,0.0749,20.0749,3.1881,6.1769,latency,1,20.0749,reduce up + broadcast down (pipelined) x10 on nvlink5
$ collcalc alltoall --size 100MB --gpus 8 --link nvlink5 --algo pairwise --format csv
op,algorithm,fastest,gpus,nodes,size_bytes,bw_basis,steps,bytes_sent_per_gpu,bytes_received_per_gpu,latency_us,bandwidth_us,time_us,algbw_GBps,busbw_GBps,dominant,layers,total_time_us,phases
alltoall,pairwise,true,8,1,100000000,per-direction,7,87500000,87500000,14.0000,97.2222,111.2222,899.1009,786.7133,bandwidth,1,111.2222,pairwise exchange x7 on nvlink5
$ collcalc links --bw-basis headline
link            tier       class        per-dir     headline  headline counts     alpha  description
hbm2e           on-package memory    2,039 GB/s   2,039 GB/s  single-figure           -  HBM2e on A100 SXM4 80GB: 2,039 GB/s shared by reads and writes
hbm3            on-package memory    3,350 GB/s   3,350 GB/s  single-figure           -  HBM3 on H100 SXM 80GB: 3,350 GB/s shared by reads and writes
hbm3e           on-package memory    4,800 GB/s   4,800 GB/s  single-figure           -  HBM3e on H200 SXM 141GB: 4,800 GB/s shared by reads and writes
hbm3e-b200      on-package memory    8,000 GB/s   8,000 GB/s  single-figure           -  HBM3e on B200 (and each GB200 GPU): 8,000 GB/s shared by reads and writes
nv-hbi          on-package memory    5,000 GB/s  10,000 GB/s  both-directions         -  NV-HBI die-to-die link joining the two B200 dies into one GPU: 10 TB/s headline
nvlink2         scale-up   nvlink      150 GB/s     300 GB/s  both-directions   2.00 us  NVLink 2 (V100): 6 links x 50 GB/s bidirectional
nvlink3         scale-up   nvlink      300 GB/s     600 GB/s  both-directions   2.00 us  NVLink 3 (A100): 12 links x 50 GB/s bidirectional
nvlink4         scale-up   nvlink      450 GB/s     900 GB/s  both-directions   2.00 us  NVLink 4 (H100/H200 SXM): 18 links x 50 GB/s bidirectional
nvlink4-h800    scale-up   nvlink      200 GB/s     400 GB/s  both-directions   2.00 us  NVLink 4 on the H800 export part: 8 links x 50 GB/s bidirectional
nvlink-bridge2  scale-up   nvlink     50.0 GB/s     100 GB/s  both-directions   2.00 us  Workstation NVLink bridge (topo NV2): 2 links x 50 GB/s bidirectional, NVLink 3 rate assumed
nvlink5         scale-up   nvlink      900 GB/s   1,800 GB/s  both-directions   2.00 us  NVLink 5 (B200/GB200): 18 links x 100 GB/s bidirectional
pcie3           host       pci        15.8 GB/s    16.0 GB/s  per-direction     5.70 us  PCIe 3.0 x16: 8 GT/s per lane, 128b/130b; 15.75 GB/s each way
pcie4           host       pci        31.5 GB/s    32.0 GB/s  per-direction     5.70 us  PCIe 4.0 x16: 16 GT/s per lane, 128b/130b; 31.5 GB/s each way
pcie5           host       pci        63.0 GB/s    64.0 GB/s  per-direction     5.70 us  PCIe 5.0 x16: 32 GT/s per lane, 128b/130b; 63 GB/s each way (CPU to GPU)
pcie6           host       pci         121 GB/s     128 GB/s  per-direction     5.70 us  PCIe 6.0 x16: 64 GT/s PAM4 with FLIT and FEC; ~121 GB/s each way
ib-hdr          scale-out  net        25.0 GB/s    25.0 GB/s  per-direction     14.0 us  InfiniBand HDR port (ConnectX-6): 4x50G = 200 Gb/s each way
ib-ndr200       scale-out  net        25.0 GB/s    25.0 GB/s  per-direction     14.0 us  InfiniBand NDR200 (split NDR port): 2x100G = 200 Gb/s each way
ib-ndr          scale-out  net        50.0 GB/s    50.0 GB/s  per-direction     14.0 us  InfiniBand NDR port (ConnectX-7): 4x100G = 400 Gb/s each way
ib-xdr          scale-out  net         100 GB/s     100 GB/s  per-direction     14.0 us  InfiniBand XDR port (ConnectX-8): 4x200G PAM4 = 800 Gb/s each way
eth100          scale-out  net        12.5 GB/s    12.5 GB/s  per-direction     14.0 us  Ethernet / RoCE 100G port: 100 Gb/s each way
eth200          scale-out  net        25.0 GB/s    25.0 GB/s  per-direction     14.0 us  Ethernet / RoCE 200G port: 200 Gb/s each way
eth400          scale-out  net        50.0 GB/s    50.0 GB/s  per-direction     14.0 us  Ethernet / RoCE 400G port (ConnectX-7): 400 Gb/s each way
eth800          scale-out  net         100 GB/s     100 GB/s  per-direction     14.0 us  Ethernet / RoCE 800G port (ConnectX-8): 800 Gb/s each way

Bandwidth cliff, headline bandwidth (as vendors quote it: NVLink counts both directions):
  hbm3|hbm3e-b200   3,350 GB/s-8,000 GB/s -> nvlink5    1,800 GB/s   1.86-4.44x
  nvlink5           1,800 GB/s         -> pcie5      64.0 GB/s         28.1x  <- node boundary
  pcie5             64.0 GB/s          -> ib-ndr     50.0 GB/s         1.28x
  ib-ndr            50.0 GB/s          -> eth100     12.5 GB/s            4x

GPU to GPU, inside the node (nvlink5) vs across nodes (ib-ndr): 36x headline, 18x per direction
$ collcalc allreduce --size 100MB --gpus 8 --link nvlink5 --algo ring
all-reduce of 100 MB (100,000,000 bytes) on 8 GPUs over nvlink5
link nvlink5: 900 GB/s, alpha 2 us per step; per-direction bandwidth

algorithm           nccl  steps   sent/GPU   recv/GPU    latency  bandwidth       time       algbw       busbw  dominant
ring                 yes     14     175 MB     175 MB    28.0 us     194 us     222 us    450 GB/s    787 GB/s  bandwidth
