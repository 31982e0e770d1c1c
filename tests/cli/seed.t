$ collcalc allreduce --size 100MB --gpus 8 --link ib-ndr --algo ring --bw-basis headline --layers 80
all-reduce of 100 MB (100,000,000 bytes) on 8 GPUs over ib-ndr
link ib-ndr: 50.0 GB/s, alpha 14.0 us per step; headline bandwidth (as vendors quote it: NVLink counts both directions)

algorithm  nccl  steps  sent/GPU  recv/GPU  latency  bandwidth     time      algbw      busbw  dominant
ring        yes     14    175 MB    175 MB   196 us    3.50 ms  3.70 ms  27.1 GB/s  47.3 GB/s  bandwidth

x 80 (80 layers x 1 per layer):
algorithm  latency  bandwidth   total
ring       15.7 ms     280 ms  296 ms
$ collcalc allreduce --size 100MB --gpus 32 --link nvlink5 --algo ring --bw-basis headline --format csv
size_bytes,op,algorithm,fastest,in_nccl,gpus,nodes,bw_basis,steps,bytes_sent_per_gpu,bytes_received_per_gpu,others_differ,bytes_sent_other_gpu,bytes_received_other_gpu,latency_us,bandwidth_us,time_us,algbw_GBps,busbw_factor,busbw_GBps,dominant,layers,per_layer,total_latency_us,total_bandwidth_us,total_time_us,note,phases
100000000,allreduce,ring,true,true,32,1,headline,62,193750000,193750000,false,193750000,193750000,124,107.63888888888889,231.63888888888889,431.7064396210577,1.9375,836.4312267657994,latency,1,1,124,107.63888888888889,231.63888888888889,,"[{""label"":""reduce-scatter"",""link"":""nvlink5"",""scope"":""intra"",""stage"":1,""steps"":31,""alpha_us"":2,""bytes_sent"":96875000,""bytes_received"":96875000,""bw_GBps"":1800,""efficiency"":1,""latency_us"":62,""bandwidth_us"":53.81944444444444,""time_us"":115.81944444444444,""note"":""""},{""label"":""all-gather"",""link"":""nvlink5"",""scope"":""intra"",""stage"":2,""steps"":31,""alpha_us"":2,""bytes_sent"":96875000,""bytes_received"":96875000,""bw_GBps"":1800,""efficiency"":1,""latency_us"":62,""bandwidth_us"":53.81944444444444,""time_us"":115.81944444444444,""note"":""""}]"
$ collcalc compare allreduce --gpus 32 --link nvlink5 --algo ring --bw-basis headline --format csv
size_bytes,op,algorithm,fastest,in_nccl,gpus,nodes,bw_basis,steps,bytes_sent_per_gpu,bytes_received_per_gpu,others_differ,bytes_sent_other_gpu,bytes_received_other_gpu,latency_us,bandwidth_us,time_us,algbw_GBps,busbw_factor,busbw_GBps,dominant,layers,per_layer,total_latency_us,total_bandwidth_us,total_time_us,note,phases,time_ratio
64000,allreduce,ring,true,true,32,1,headline,62,124000,124000,false,124000,124000,124,0.06888888888888889,124.06888888888889,0.5158424531174437,1.9375,0.9994447529150472,latency,1,1,124,0.06888888888888889,124.06888888888889,,"[{""label"":""reduce-scatter"",""link"":""nvlink5"",""scope"":""intra"",""stage"":1,""steps"":31,""alpha_us"":2,""bytes_sent"":62000,""bytes_received"":62000,""bw_GBps"":1800,""efficiency"":1,""latency_us"":62,""bandwidth_us"":0.034444444444444444,""time_us"":62.034444444444446,""note"":""""},{""label"":""all-gather"",""link"":""nvlink5"",""scope"":""intra"",""stage"":2,""steps"":31,""alpha_us"":2,""bytes_sent"":62000,""bytes_received"":62000,""bw_GBps"":1800,""efficiency"":1,""latency_us"":62,""bandwidth_us"":0.034444444444444444,""time_us"":62.034444444444446,""note"":""""}]",1
1000000,allreduce,ring,true,true,32,1,headline,62,1937500,1937500,false,1937500,1937500,124,1.0763888888888888,125.07638888888889,7.995114096940759,1.9375,15.49053356282272,latency,1,1,124,1.0763888888888888,125.07638888888889,,"[{""label"":""reduce-scatter"",""link"":""nvlink5"",""scope"":""intra"",""stage"":1,""steps"":31,""alpha_us"":2,""bytes_sent"":968750,""bytes_received"":968750,""bw_GBps"":1800,""efficiency"":1,""latency_us"":62,""bandwidth_us"":0.5381944444444444,""time_us"":62.53819444444444,""note"":""""},{""label"":""all-gather"",""link"":""nvlink5"",""scope"":""intra"",""stage"":2,""steps"":31,""alpha_us"":2,""bytes_sent"":968750,""bytes_received"":968750,""bw_GBps"":1800,""efficiency"":1,""latency_us"":62,""bandwidth_us"":0.5381944444444444,""time_us"":62.53819444444444,""note"":""""}]",1
100000000,allreduce,ring,true,true,32,1,headline,62,193750000,193750000,false,193750000,193750000,124,107.63888888888889,231.63888888888889,431.7064396210577,1.9375,836.4312267657994,latency,1,1,124,107.63888888888889,231.63888888888889,,"[{""label"":""reduce-scatter"",""link"":""nvlink5"",""scope"":""intra"",""stage"":1,""steps"":31,""alpha_us"":2,""bytes_sent"":96875000,""bytes_received"":96875000,""bw_GBps"":1800,""efficiency"":1,""latency_us"":62,""bandwidth_us"":53.81944444444444,""time_us"":115.81944444444444,""note"":""""},{""label"":""all-gather"",""link"":""nvlink5"",""scope"":""intra"",""stage"":2,""steps"":31,""alpha_us"":2,""bytes_sent"":96875000,""bytes_received"":96875000,""bw_GBps"":1800,""efficiency"":1,""latency_us"":62,""bandwidth_us"":53.81944444444444,""time_us"":115.81944444444444,""note"":""""}]",1
1000000000,allreduce,ring,true,true,32,1,headline,62,1937500000,1937500000,false,1937500000,1937500000,124,1076.388888888889,1200.388888888889,833.063359096589,1.9375,1614.0602582496413,bandwidth,1,1,124,1076.388888888889,1200.388888888889,,"[{""label"":""reduce-scatter"",""link"":""nvlink5"",""scope"":""intra"",""stage"":1,""steps"":31,""alpha_us"":2,""bytes_sent"":968750000,""bytes_received"":968750000,""bw_GBps"":1800,""efficiency"":1,""latency_us"":62,""bandwidth_us"":538.1944444444445,""time_us"":600.1944444444445,""note"":""""},{""label"":""all-gather"",""link"":""nvlink5"",""scope"":""intra"",""stage"":2,""steps"":31,""alpha_us"":2,""bytes_sent"":968750000,""bytes_received"":968750000,""bw_GBps"":1800,""efficiency"":1,""latency_us"":62,""bandwidth_us"":538.1944444444445,""time_us"":600.1944444444445,""note"":""""}]",1
$ collcalc allreduce --size 64KB --gpus 32 --link nvlink5 --algo tree --bw-basis headline --format csv
size_bytes,op,algorithm,fastest,in_nccl,gpus,nodes,bw_basis,steps,bytes_sent_per_gpu,bytes_received_per_gpu,others_differ,bytes_sent_other_gpu,bytes_received_other_gpu,latency_us,bandwidth_us,time_us,algbw_GBps,busbw_factor,busbw_GBps,dominant,layers,per_layer,total_latency_us,total_bandwidth_us,total_time_us,note,phases
64000,allreduce,tree,true,true,32,1,headline,10,124000,124000,false,124000,124000,20,0.0748792270531401,20.07487922705314,3.1880640115509564,1.9375,6.1768740223799785,latency,1,1,20,0.0748792270531401,20.07487922705314,,"[{""label"":""reduce up + broadcast down (pipelined)"",""link"":""nvlink5"",""scope"":""intra"",""stage"":1,""steps"":10,""alpha_us"":2,""bytes_sent"":124000,""bytes_received"":124000,""bw_GBps"":1656,""efficiency"":0.92,""latency_us"":20,""bandwidth_us"":0.0748792270531401,""time_us"":20.07487922705314,""note"":""two binary trees of depth ceil(lg 32) = 5, each carrying half of S up and back down (at most 2(p-1)/p x S per GPU); nvlink5 1800 GB/s x tree efficiency 0.92 = 1656 GB/s""}]"
$ collcalc alltoall --size 100MB --gpus 8 --link nvlink5 --algo pairwise --format csv
size_bytes,op,algorithm,fastest,in_nccl,gpus,nodes,bw_basis,steps,bytes_sent_per_gpu,bytes_received_per_gpu,others_differ,bytes_sent_other_gpu,bytes_received_other_gpu,latency_us,bandwidth_us,time_us,algbw_GBps,busbw_factor,busbw_GBps,dominant,layers,per_layer,total_latency_us,total_bandwidth_us,total_time_us,note,phases
100000000,alltoall,pairwise,true,true,8,1,per-direction,7,87500000,87500000,false,87500000,87500000,14,97.22222222222223,111.22222222222223,899.100899100899,0.875,786.7132867132866,bandwidth,1,1,14,97.22222222222223,111.22222222222223,,"[{""label"":""pairwise exchange"",""link"":""nvlink5"",""scope"":""intra"",""stage"":1,""steps"":7,""alpha_us"":2,""bytes_sent"":87500000,""bytes_received"":87500000,""bw_GBps"":900,""efficiency"":1,""latency_us"":14,""bandwidth_us"":97.22222222222223,""time_us"":111.22222222222223,""note"":""""}]"
$ collcalc links --bw-basis headline
link            tier        class      per-dir     headline  headline counts    alpha  description
hbm2e           on-package  memory  2,039 GB/s   2,039 GB/s  single-figure          -  HBM2e on A100 SXM4 80GB: 2,039 GB/s shared by reads and writes
hbm3            on-package  memory  3,350 GB/s   3,350 GB/s  single-figure          -  HBM3 on H100 SXM 80GB: 3,350 GB/s shared by reads and writes
hbm3e           on-package  memory  4,800 GB/s   4,800 GB/s  single-figure          -  HBM3e on H200 SXM 141GB: 4,800 GB/s shared by reads and writes
hbm3e-b200      on-package  memory  8,000 GB/s   8,000 GB/s  single-figure          -  HBM3e on B200 and B300 (and each GB200/GB300 GPU): 8,000 GB/s shared by reads and writes
nv-hbi          on-package  memory  5,000 GB/s  10,000 GB/s  both-directions        -  NV-HBI die-to-die link joining the two B200 dies into one GPU: 10 TB/s headline
hbm3-mi300x     on-package  memory  5,300 GB/s   5,300 GB/s  single-figure          -  HBM3 on AMD Instinct MI300X: 5,300 GB/s shared by reads and writes
hbm3-h20        on-package  memory  4,000 GB/s   4,000 GB/s  single-figure          -  HBM3 on NVIDIA H20: 4,000 GB/s shared by reads and writes
hbm3e-mi355x    on-package  memory  8,000 GB/s   8,000 GB/s  single-figure          -  HBM3E on AMD Instinct MI355X / MI350X: 8,000 GB/s shared by reads and writes
nvlink2         scale-up    nvlink    150 GB/s     300 GB/s  both-directions  2.00 us  NVLink 2 (V100): 6 links x 50 GB/s bidirectional
nvlink3         scale-up    nvlink    300 GB/s     600 GB/s  both-directions  2.00 us  NVLink 3 (A100): 12 links x 50 GB/s bidirectional
nvlink4         scale-up    nvlink    450 GB/s     900 GB/s  both-directions  2.00 us  NVLink 4 (H100/H200 SXM): 18 links x 50 GB/s bidirectional
nvlink4-h800    scale-up    nvlink    200 GB/s     400 GB/s  both-directions  2.00 us  NVLink 4 on the H800 export part: 8 links x 50 GB/s bidirectional
nvlink-bridge2  scale-up    nvlink   50.0 GB/s     100 GB/s  both-directions  2.00 us  Workstation NVLink bridge (topo NV2): 2 links x 50 GB/s bidirectional, NVLink 3 rate assumed
nvlink5         scale-up    nvlink    900 GB/s   1,800 GB/s  both-directions  2.00 us  NVLink 5 (B200/GB200): 18 links x 100 GB/s bidirectional
xgmi-mi300x     scale-up    nvlink    448 GB/s     896 GB/s  both-directions  2.00 us  AMD Infinity Fabric (xGMI) on MI300X: 7 links x 128 GB/s bidirectional, one to each other GPU of an 8-GPU full mesh
xgmi-mi355x     scale-up    nvlink    538 GB/s   1,075 GB/s  both-directions  2.00 us  AMD Infinity Fabric (xGMI) on MI355X / MI350X: 7 links x 153.6 GB/s bidirectional, one to each other GPU of an 8-GPU full mesh
pcie3           host        pci      15.8 GB/s    16.0 GB/s  per-direction    5.70 us  PCIe 3.0 x16: 8 GT/s per lane, 128b/130b; 15.75 GB/s each way
pcie4           host        pci      31.5 GB/s    32.0 GB/s  per-direction    5.70 us  PCIe 4.0 x16: 16 GT/s per lane, 128b/130b; 31.5 GB/s each way
pcie5           host        pci      63.0 GB/s    64.0 GB/s  per-direction    5.70 us  PCIe 5.0 x16: 32 GT/s per lane, 128b/130b; 63 GB/s each way (CPU to GPU)
pcie6           host        pci       121 GB/s     128 GB/s  per-direction    5.70 us  PCIe 6.0 x16: 64 GT/s PAM4 with FLIT and FEC; ~121 GB/s each way
nvlink-c2c      host        nvlink    450 GB/s     900 GB/s  both-directions  2.00 us  NVLink-C2C (Grace to Hopper/Blackwell GPU): 900 GB/s bidirectional, 450 GB/s each way (CPU to GPU)
ib-hdr          scale-out   net      25.0 GB/s    25.0 GB/s  per-direction    14.0 us  InfiniBand HDR port (ConnectX-6): 4x50G = 200 Gb/s each way
ib-ndr200       scale-out   net      25.0 GB/s    25.0 GB/s  per-direction    14.0 us  InfiniBand NDR200 (split NDR port): 2x100G = 200 Gb/s each way
ib-ndr          scale-out   net      50.0 GB/s    50.0 GB/s  per-direction    14.0 us  InfiniBand NDR port (ConnectX-7): 4x100G = 400 Gb/s each way
ib-xdr          scale-out   net       100 GB/s     100 GB/s  per-direction    14.0 us  InfiniBand XDR port (ConnectX-8): 4x200G PAM4 = 800 Gb/s each way
eth100          scale-out   net      12.5 GB/s    12.5 GB/s  per-direction    14.0 us  Ethernet / RoCE 100G port: 100 Gb/s each way
eth200          scale-out   net      25.0 GB/s    25.0 GB/s  per-direction    14.0 us  Ethernet / RoCE 200G port: 200 Gb/s each way
eth400          scale-out   net      50.0 GB/s    50.0 GB/s  per-direction    14.0 us  Ethernet / RoCE 400G port (ConnectX-7): 400 Gb/s each way
eth800          scale-out   net       100 GB/s     100 GB/s  per-direction    14.0 us  Ethernet / RoCE 800G port (ConnectX-8): 800 Gb/s each way

Bandwidth cliff, headline bandwidth (as vendors quote it: NVLink counts both directions):
from             bandwidth              to       bandwidth   ratio
hbm3|hbm3e-b200  3,350 GB/s-8,000 GB/s  nvlink5  1,800 GB/s  1.86-4.44x
nvlink5          1,800 GB/s             pcie5    64.0 GB/s   28.1x       <- node boundary
pcie5            64.0 GB/s              ib-ndr   50.0 GB/s   1.28x
ib-ndr           50.0 GB/s              eth100   12.5 GB/s   4x

GPU to GPU, inside the node (nvlink5) vs across nodes (ib-ndr): 36x headline, 18x per direction
$ collcalc allreduce --size 100MB --gpus 8 --link nvlink5 --algo ring
all-reduce of 100 MB (100,000,000 bytes) on 8 GPUs over nvlink5
link nvlink5: 900 GB/s, alpha 2.00 us per step; per-direction bandwidth

algorithm  nccl  steps  sent/GPU  recv/GPU  latency  bandwidth    time     algbw     busbw  dominant
ring        yes     14    175 MB    175 MB  28.0 us     194 us  222 us  450 GB/s  787 GB/s  bandwidth
