$ collcalc allreduce --size 16GiB --gpus 16 --gpus-per-node 8 --intra nvlink4 --inter ib-ndr --algo ring --format csv
op,algorithm,fastest,gpus,nodes,size_bytes,bw_basis,steps,bytes_sent_per_gpu,bytes_received_per_gpu,latency_us,bandwidth_us,time_us,algbw_GBps,busbw_GBps,dominant,layers,total_time_us,phases
allreduce,ring,true,16,2,17179869184,per-direction,30,32212254720,32212254720,84.0000,80530.6368,80614.6368,213.1110,399.5832,bandwidth,1,80614.6368,reduce-scatter x15 on nvlink4+ib-ndr; all-gather x15 on nvlink4+ib-ndr
$ collcalc allreduce --size 16GiB --gpus 16 --gpus-per-node 8 --intra nvlink4 --inter ib-ndr --nics-per-node 1 --algo ring --format csv
op,algorithm,fastest,gpus,nodes,size_bytes,bw_basis,steps,bytes_sent_per_gpu,bytes_received_per_gpu,latency_us,bandwidth_us,time_us,algbw_GBps,busbw_GBps,dominant,layers,total_time_us,phases
allreduce,ring,true,16,2,17179869184,per-direction,30,32212254720,32212254720,84.0000,644245.0944,644329.0944,26.6632,49.9935,bandwidth,1,644329.0944,reduce-scatter x15 on nvlink4+ib-ndr; all-gather x15 on nvlink4+ib-ndr
$ collcalc allreduce --size 100MB --gpus 8 --gpus-per-node 1 --inter ib-ndr --nics-per-node 1 --algo ring --bw-basis headline --format csv
op,algorithm,fastest,gpus,nodes,size_bytes,bw_basis,steps,bytes_sent_per_gpu,bytes_received_per_gpu,latency_us,bandwidth_us,time_us,algbw_GBps,busbw_GBps,dominant,layers,total_time_us,phases
allreduce,ring,true,8,8,100000000,headline,14,175000000,175000000,196.0000,3500.0000,3696.0000,27.0563,47.3485,bandwidth,1,3696.0000,reduce-scatter x7 on ib-ndr; all-gather x7 on ib-ndr
$ collcalc allreduce --size 100MB --gpus 9 --platform hgx-h100 --algo ring
all-reduce of 100 MB (100,000,000 bytes) on 9 GPUs = 2 nodes x 8 (nvlink4 inside, 8 x ib-ndr NICs per node, last node holds 1)
intra nvlink4: 450 GB/s, alpha 2 us; inter ib-ndr: 50.0 GB/s per NIC, alpha 14 us; per-direction bandwidth

algorithm           nccl  steps   sent/GPU   recv/GPU    latency  bandwidth       time       algbw       busbw  dominant
ring                 yes     16     178 MB     178 MB    56.0 us    3.56 ms    3.61 ms   27.7 GB/s   49.2 GB/s  bandwidth
note: 9 GPUs fill 2 nodes of 8 in order: the last node holds 1.
$ collcalc allreduce --size 100MB --gpus 73 --platform gb200-nvl72 --algo ring --format csv
op,algorithm,fastest,gpus,nodes,size_bytes,bw_basis,steps,bytes_sent_per_gpu,bytes_received_per_gpu,latency_us,bandwidth_us,time_us,algbw_GBps,busbw_GBps,dominant,layers,total_time_us,phases
allreduce,ring,true,73,2,100000000,per-direction,144,197260274,197260274,312.0000,3945.2055,4257.2055,23.4896,46.3356,bandwidth,1,4257.2055,reduce-scatter x72 on nvlink5+ib-ndr; all-gather x72 on nvlink5+ib-ndr
$ collcalc allreduce --size 1GiB --platform hgx-h100 --nodes 4 --algo hierarchical --explain
all-reduce of 1.07 GB (1,073,741,824 bytes) on 32 GPUs = 4 nodes x 8 (nvlink4 inside, 8 x ib-ndr NICs per node)
intra nvlink4: 450 GB/s, alpha 2 us; inter ib-ndr: 50.0 GB/s per NIC, alpha 14 us; per-direction bandwidth

algorithm           nccl  steps   sent/GPU   recv/GPU    latency  bandwidth       time       algbw       busbw  dominant
hierarchical           -     20    2.08 GB    2.08 GB     112 us    8.20 ms    8.31 ms    129 GB/s    250 GB/s  bandwidth

hierarchical all-reduce:
  1. intra reduce-scatter on nvlink4
     latency:   7 steps x 2 us = 14.0 us
     bandwidth: max(940 MB out, 940 MB in) / 450 GB/s = 2.09 ms
  2. inter all-reduce (ring per rail) on ib-ndr
     latency:   6 steps x 14 us = 84.0 us
     bandwidth: max(201 MB out, 201 MB in) / 50.0 GB/s = 4.03 ms
     (one ib-ndr NIC per GPU at 50 GB/s)
  3. intra all-gather on nvlink4
     latency:   7 steps x 2 us = 14.0 us
     bandwidth: max(940 MB out, 940 MB in) / 450 GB/s = 2.09 ms
  total: latency 112 us + bandwidth 8.20 ms = 8.31 ms (bandwidth dominates, 99%)
  algbw = 1.07 GB / 8.31 ms = 129 GB/s; busbw = algbw x 1.938 = 250 GB/s
  note: Each GPU sends 2(N-1)/N x S/G across the network: the node's 8 GPUs split S and each all-reduces its 1/8 on its own rail.
$ collcalc allreduce --size 1GiB --platform hgx-h100 --nodes 2 --nics-per-node 2 --intra nvlink4-h800 --no-nvls --algo ring --format csv
op,algorithm,fastest,gpus,nodes,size_bytes,bw_basis,steps,bytes_sent_per_gpu,bytes_received_per_gpu,latency_us,bandwidth_us,time_us,algbw_GBps,busbw_GBps,dominant,layers,total_time_us,phases
allreduce,ring,true,16,2,1073741824,per-direction,30,2013265920,2013265920,84.0000,20132.6592,20216.6592,53.1117,99.5845,bandwidth,1,20216.6592,reduce-scatter x15 on nvlink4-h800+ib-ndr; all-gather x15 on nvlink4-h800+ib-ndr
$ collcalc alltoall --size 1GiB --platform hgx-h100 --nodes 2 --explain
all-to-all of 1.07 GB (1,073,741,824 bytes) on 16 GPUs = 2 nodes x 8 (nvlink4 inside, 8 x ib-ndr NICs per node)
intra nvlink4: 450 GB/s, alpha 2 us; inter ib-ndr: 50.0 GB/s per NIC, alpha 14 us; per-direction bandwidth

algorithm           nccl  steps   sent/GPU   recv/GPU    latency  bandwidth       time       algbw       busbw  dominant
pairwise             yes      8    1.01 GB    1.01 GB     112 us    10.7 ms    10.8 ms   99.0 GB/s   92.8 GB/s  bandwidth  <- fastest
bruck                  -      4    2.15 GB    2.15 GB    56.0 us    42.9 ms    43.0 ms   25.0 GB/s   23.4 GB/s  bandwidth

pairwise all-to-all:
  1. exchange with GPUs in the node on nvlink4
     latency:   7 steps x 2 us = 14.0 us
     bandwidth: max(470 MB out, 470 MB in) / 450 GB/s = 1.04 ms
  2. exchange with GPUs in other nodes on ib-ndr (at the same time as the previous phase; the slower counts)
     latency:   8 steps x 14 us = 112 us
     bandwidth: max(537 MB out, 537 MB in) / 50.0 GB/s = 10.7 ms
     (one ib-ndr NIC per GPU at 50 GB/s)
  total: latency 112 us + bandwidth 10.7 ms = 10.8 ms (bandwidth dominates, 99%)
  algbw = 1.07 GB / 10.8 ms = 99.0 GB/s; busbw = algbw x 0.9375 = 92.8 GB/s
  note: 8 of 15 peers are in other nodes: (N-1)/N of the traffic crosses the network, where one GPU cannot use more than one NIC.

bruck all-to-all:
  1. bruck all-to-all on ib-ndr
     latency:   4 steps x 14 us = 56.0 us
     bandwidth: max(2.15 GB out, 2.15 GB in) / 50.0 GB/s = 42.9 ms
     (one ib-ndr NIC per GPU at 50 GB/s)
  total: latency 56.0 us + bandwidth 42.9 ms = 43.0 ms (bandwidth dominates, 100%)
  algbw = 1.07 GB / 43.0 ms = 25.0 GB/s; busbw = algbw x 0.9375 = 23.4 GB/s
  note: Bruck all-to-all trades bandwidth for latency: ceil(lg p) rounds, but each block travels up to lg p times (local rotations not charged).
$ collcalc compare allreduce --size 256MB --gpus 16 --placement label=nvl72,platform=gb200-nvl72 --placement label=2x-hgx-b200,platform=hgx-b200 --algo ring --layers 2 --per-layer 2
all-reduce, per-direction bandwidth

256 MB (256000000 bytes):
  configuration            algorithm              latency  bandwidth       time       busbw vs first  total
  nvl72                    ring                   60.0 us     533 us     593 us    809 GB/s    1.00x  2.37 ms
  2x-hgx-b200              ring                   84.0 us    1.20 ms    1.28 ms    374 GB/s    2.16x  5.14 ms
  2x-hgx-b200 vs nvl72: 2.16x the time (bandwidth term 1.20 ms vs 533 us, 2.25x); costliest phase: reduce-scatter on nvlink5+ib-ndr
  x 4: bandwidth terms 2.13 ms vs 4.80 ms; totals 2.37 ms vs 5.14 ms
$ collcalc platforms --format csv
name,gpu,gpus_per_node,intra_link,inter_link,nics_per_node,nvls,sharp,description
dgx-a100,A100 SXM4,8,nvlink3,ib-hdr,8,false,false,"DGX/HGX A100: 8x A100 SXM4 on 6 NVSwitch gen 2 chips (topo NV12), one HDR 200G compute NIC per GPU"
hgx-a100-ndr200,A100 SXM4,8,nvlink3,ib-ndr200,8,false,false,"HGX A100 with 8 NDR200 ports (200G, e.g. ConnectX-7 at 200G or split NDR), one per GPU"
hgx-h100,H100 SXM,8,nvlink4,ib-ndr,8,true,false,"HGX/DGX H100: 8x H100 SXM on 4 NVSwitch gen 3 chips (NV18, NVLink SHARP), one NDR 400G NIC per GPU"
hgx-h200,H200 SXM,8,nvlink4,ib-ndr,8,true,false,"HGX/DGX H200: the HGX H100 baseboard with H200 SXM (HBM3e 141 GB), one NDR 400G NIC per GPU"
hgx-h800,H800 SXM,8,nvlink4-h800,ib-ndr,8,true,false,"HGX H800: export Hopper with 8 NVLink4 links (200 GB/s per direction), NVSwitch gen 3, one ConnectX-7 400G NIC per GPU (DeepEP's setup)"
hgx-b200,B200,8,nvlink5,ib-ndr,8,true,false,"HGX/DGX B200: 8x B200 on 2 NVSwitch chips (NVLink5, 1,800 GB/s bidirectional per GPU), one ConnectX-7 400G NIC per GPU"
hgx-b200-xdr,B200,8,nvlink5,ib-xdr,8,true,false,HGX B200 with one ConnectX-8 800G (XDR) NIC per GPU instead of ConnectX-7 400G
gb200-nvl72,GB200,72,nvlink5,ib-ndr,72,true,false,"GB200 NVL72 rack as one NVLink domain: 18 compute trays x 4 Blackwell GPUs, 9 NVLink switch trays; NCCL sees one node (MNNVL)"
l40s-8x-pcie,L40S,8,pcie4,eth400,1,false,false,"8x L40S on PCIe Gen4, no NVLink (AWS g6e.48xlarge): GPU-to-GPU over PCIe or host memory; its GDDR6 is not in the link table"
workstation-2gpu-nvlink,not stated,2,nvlink-bridge2,eth100,1,false,false,2-GPU workstation joined by an NVLink bridge (topo NV2: 2 NVLink links); GPU model not stated
$ collcalc links --platform hgx-h100
Bandwidth cliff, per-direction bandwidth:
  hbm3              3,350 GB/s         -> nvlink4    450 GB/s          7.44x
  nvlink4           450 GB/s           -> pcie5      63.0 GB/s         7.14x  <- node boundary
  pcie5             63.0 GB/s          -> ib-ndr     50.0 GB/s         1.26x

GPU to GPU, inside the node (nvlink4) vs across nodes (ib-ndr): 18x headline, 9x per direction
$ collcalc allreduce --size 1MB --gpus 16 --gpus-per-node 8 --intra ib-ndr --inter nvlink4 --algo ring --format csv
op,algorithm,fastest,gpus,nodes,size_bytes,bw_basis,steps,bytes_sent_per_gpu,bytes_received_per_gpu,latency_us,bandwidth_us,time_us,algbw_GBps,busbw_GBps,dominant,layers,total_time_us,phases
allreduce,ring,true,16,2,1000000,per-direction,30,1875000,1875000,396.0000,37.5000,433.5000,2.3068,4.3253,latency,1,433.5000,reduce-scatter x15 on ib-ndr+nvlink4; all-gather x15 on ib-ndr+nvlink4
[stderr] collcalc allreduce: warning: the intra-node link ib-ndr (50 GB/s) is slower than the inter-node link nvlink4 (450 GB/s)
$ collcalc allreduce --size 1MB --platform hgx-h100 --nodes 2 --gpus 8
[stderr] collcalc allreduce: --nodes: 2 nodes x 8 GPUs per node = 16 GPUs, but --gpus says 8 (see 'collcalc allreduce --help')
[exit 2]
$ collcalc allreduce --size 1MB --platform dgx-z9 --nodes 2
[stderr] collcalc allreduce: --platform: unknown platform 'dgx-z9' (known: dgx-a100, hgx-a100-ndr200, hgx-h100, hgx-h200, hgx-h800, hgx-b200, hgx-b200-xdr, gb200-nvl72, l40s-8x-pcie, workstation-2gpu-nvlink) (see 'collcalc allreduce --help')
[exit 2]
$ collcalc allreduce --size 1MB --gpus 16 --gpus-per-node 8 --intra nvlink4 --inter ib-ndr --nics-per-node 0
[stderr] collcalc allreduce: --nics-per-node: '0' is out of range: must be between 1 and 1024 (see 'collcalc allreduce --help')
[exit 2]
$ collcalc allreduce --size 1MB --gpus 16 --gpus-per-node 0 --intra nvlink4 --inter ib-ndr
[stderr] collcalc allreduce: --gpus-per-node: '0' is out of range: must be between 1 and 1048576 (see 'collcalc allreduce --help')
[exit 2]
$ collcalc allreduce --size 1MB --gpus 16 --gpus-per-node 8 --intra nvlink4
[stderr] collcalc allreduce: --inter: missing: the link between nodes (NIC type) (see 'collcalc allreduce --help')
[exit 2]
