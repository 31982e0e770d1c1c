$ collcalc topo examples/topo_hgx_h100_10nic.txt
8 GPUs, 10 NICs; GPU generation hopper (25.0 GB/s per NVLink per direction, PCIe Gen5): NV18 is Hopper (H100/H200/H20, NVLink 4, 25 GB/s per link per direction) or Blackwell (B200/GB200, NVLink 5, 50 GB/s): ambiguous, Hopper assumed (450 GB/s per GPU); give the GPU (sm100) for Blackwell's 900 GB/s.

        GPU0  GPU1  GPU2  GPU3  GPU4  GPU5  GPU6  GPU7
GPU0       X  NV18  NV18  NV18  NV18  NV18  NV18  NV18
GPU1    NV18     X  NV18  NV18  NV18  NV18  NV18  NV18
GPU2    NV18  NV18     X  NV18  NV18  NV18  NV18  NV18
GPU3    NV18  NV18  NV18     X  NV18  NV18  NV18  NV18
GPU4    NV18  NV18  NV18  NV18     X  NV18  NV18  NV18
GPU5    NV18  NV18  NV18  NV18  NV18     X  NV18  NV18
GPU6    NV18  NV18  NV18  NV18  NV18  NV18     X  NV18
GPU7    NV18  NV18  NV18  NV18  NV18  NV18  NV18     X

NVLink islands:
island  GPUs    links  all-to-all  NVSwitch   per GPU
     0  GPU0-7     18         yes       yes  450 GB/s

device  island  GPU fabric  NUMA  CPUs            nearest NIC  via
GPU0         0    450 GB/s     0  0-55,112-167    NIC0         PIX
GPU1         0    450 GB/s     0  0-55,112-167    NIC1         PIX
GPU2         0    450 GB/s     0  0-55,112-167    NIC2         PIX
GPU3         0    450 GB/s     0  0-55,112-167    NIC5         PIX
GPU4         0    450 GB/s     1  56-111,168-223  NIC6         PIX
GPU5         0    450 GB/s     1  56-111,168-223  NIC7         PIX
GPU6         0    450 GB/s     1  56-111,168-223  NIC8         PIX
GPU7         0    450 GB/s     1  56-111,168-223  NIC9         PIX

Advice:
warning Matrix truncated at row NIC3 (line 14): 11 of 18 rows present; all 8 GPU rows are complete, so GPU pairs and GPU-to-NIC paths are kept, rows NIC3..NIC9 are missing. (line 14)
        next: Paste the whole output of nvidia-smi topo -m (with its NIC Legend) to see NIC-to-NIC paths.
info    NV18 is Hopper (H100/H200/H20, NVLink 4, 25 GB/s per link per direction) or Blackwell (B200/GB200, NVLink 5, 50 GB/s): ambiguous, Hopper assumed (450 GB/s per GPU); give the GPU (sm100) for Blackwell's 900 GB/s. (line 2)
        next: Give the GPU (sm80, sm90, sm100, or a name such as h100) when the guess is wrong.
info    NVLink island of 8 GPUs (GPU0-GPU7): NV18 between every pair, an NVSwitch fabric: 450 GB/s per direction per GPU (18 links x 25 GB/s). (lines 3 4 5 6 7 8 9 10)
info    Suggested TP groups: {GPU0-GPU7} (TP up to 8 stays inside one NVLink island, 450 GB/s per direction per GPU). (line 3)
info    EP groups: {GPU0-GPU7} (all-to-all over NVLink: every pair NV18, so dispatch and combine run at up to 450 GB/s per direction per GPU). (line 3)
info    Nearest NIC per GPU (best class; +N more at the same class): GPU0->NIC0, GPU1->NIC1, GPU2->NIC2, GPU3->NIC5, GPU4->NIC6, GPU5->NIC7, GPU6->NIC8, GPU7->NIC9. (line 2)
info    GPUs on 2 NUMA nodes: NUMA 0: GPU0-GPU3 (CPUs 0-55,112-167); NUMA 1: GPU4-GPU7 (CPUs 56-111,168-223). (line 2)
        next: Bind each rank's threads and host buffers to its GPU's NUMA node (numactl --cpunodebind, or the launcher's CPU binding).
$ collcalc topo examples/topo_pcie_switch_pairs.txt
8 GPUs, 0 NICs; GPU generation unknown (no NVLink, PCIe Gen4): No NVLink; GPU not identified, so PCIe Gen4 is assumed for the PCIe estimates (give the GPU to change it).

        GPU0  GPU1  GPU2  GPU3  GPU4  GPU5  GPU6  GPU7
GPU0       X   PIX   PHB   PHB   SYS   SYS   SYS   SYS
GPU1     PIX     X   PHB   PHB   SYS   SYS   SYS   SYS
GPU2     PHB   PHB     X   PIX   SYS   SYS   SYS   SYS
GPU3     PHB   PHB   PIX     X   SYS   SYS   SYS   SYS
GPU4     SYS   SYS   SYS   SYS     X   PIX   PHB   PHB
GPU5     SYS   SYS   SYS   SYS   PIX     X   PHB   PHB
GPU6     SYS   SYS   SYS   SYS   PHB   PHB     X   PIX
GPU7     SYS   SYS   SYS   SYS   PHB   PHB   PIX     X

No NVLink: every GPU is an island of one.

device  island  GPU fabric  NUMA  CPUs         nearest NIC  via
GPU0         0      0 GB/s     0  0-13,28-41   -            -
GPU1         1      0 GB/s     0  0-13,28-41   -            -
GPU2         2      0 GB/s     0  0-13,28-41   -            -
GPU3         3      0 GB/s     0  0-13,28-41   -            -
GPU4         4      0 GB/s     1  14-27,42-55  -            -
GPU5         5      0 GB/s     1  14-27,42-55  -            -
GPU6         6      0 GB/s     1  14-27,42-55  -            -
GPU7         7      0 GB/s     1  14-27,42-55  -            -

Advice:
info    No NVLink; GPU not identified, so PCIe Gen4 is assumed for the PCIe estimates (give the GPU to change it). (line 2)
        next: Give the GPU (sm80, sm90, sm100, or a name such as h100) when the guess is wrong.
info    No NVLink at all: P2P over PCIe (4 PIX, 8 PHB, 16 SYS pairs); expect about 25.2 GB/s per direction behind one PCIe switch (PIX), down to 12.6 GB/s across the CPU interconnect (SYS), on PCIe Gen4 (x16 line rate 31.50 GB/s). (line 2)
        next: Measure with nvbandwidth or p2pBandwidthLatencyTest; if NCCL logs show 'via SHM', PCIe P2P is off (IOMMU/ACS, VM): check NCCL_P2P_LEVEL and NCCL_P2P_DISABLE.
info    Best GPU pairs are behind one PCIe switch (PIX): use them as TP=2 groups: (GPU0, GPU1), (GPU2, GPU3), (GPU4, GPU5), (GPU6, GPU7) (about 25.2 GB/s per direction over PCIe Gen4). (lines 3 4 5 6 7 8 9 10)
        next: Map each TP group onto one of these sets; keep larger TP off this box's PCIe.
info    EP groups within one CPU socket: {GPU0-GPU3}, {GPU4-GPU7} (no SYS pair inside); an all-to-all spanning them crosses the CPU interconnect at about 12.6 GB/s per direction. (line 2)
info    Pairs to avoid: 16 GPU pairs are SYS (e.g. GPU0-GPU4), crossing the CPU interconnect at about 12.6 GB/s per direction; the sets without a SYS pair are {GPU0-GPU3}, {GPU4-GPU7}. (line 3)
        next: Keep TP and EP groups inside one of the sets; only DP or PP traffic should cross.
info    GPUs on 2 NUMA nodes: NUMA 0: GPU0-GPU3 (CPUs 0-13,28-41); NUMA 1: GPU4-GPU7 (CPUs 14-27,42-55). (line 2)
        next: Bind each rank's threads and host buffers to its GPU's NUMA node (numactl --cpunodebind, or the launcher's CPU binding).
$ collcalc topo examples/topo_pcie_switch_pairs.txt --format json
{"schema_version":1,"command":"topo","query":{"file":"examples/topo_pcie_switch_pairs.txt","gpus":8,"nics":0,"generation":"unknown","generation_inferred":true,"nvlink_per_link_GBps":25,"pcie_gen":4,"truncated":false,"source":"nvidia-smi topo -m","gpu_link":"NVLink"},"islands":[{"island":0,"gpus":"GPU0","gpu_count":1,"min_bonds":0,"max_bonds":0,"all_to_all":false,"nvswitch":false,"per_gpu_GBps":0},{"island":1,"gpus":"GPU1","gpu_count":1,"min_bonds":0,"max_bonds":0,"all_to_all":false,"nvswitch":false,"per_gpu_GBps":0},{"island":2,"gpus":"GPU2","gpu_count":1,"min_bonds":0,"max_bonds":0,"all_to_all":false,"nvswitch":false,"per_gpu_GBps":0},{"island":3,"gpus":"GPU3","gpu_count":1,"min_bonds":0,"max_bonds":0,"all_to_all":false,"nvswitch":false,"per_gpu_GBps":0},{"island":4,"gpus":"GPU4","gpu_count":1,"min_bonds":0,"max_bonds":0,"all_to_all":false,"nvswitch":false,"per_gpu_GBps":0},{"island":5,"gpus":"GPU5","gpu_count":1,"min_bonds":0,"max_bonds":0,"all_to_all":false,"nvswitch":false,"per_gpu_GBps":0},{"island":6,"gpus":"GPU6","gpu_count":1,"min_bonds":0,"max_bonds":0,"all_to_all":false,"nvswitch":false,"per_gpu_GBps":0},{"island":7,"gpus":"GPU7","gpu_count":1,"min_bonds":0,"max_bonds":0,"all_to_all":false,"nvswitch":false,"per_gpu_GBps":0}],"gpus":[{"name":"GPU0","kind":"gpu","legend_name":null,"island":0,"nvlink_GBps":0,"numa_node":0,"cpu_affinity":"0-13,28-41","nearest_nics":null,"nearest_nic_class":null,"line":3},{"name":"GPU1","kind":"gpu","legend_name":null,"island":1,"nvlink_GBps":0,"numa_node":0,"cpu_affinity":"0-13,28-41","nearest_nics":null,"nearest_nic_class":null,"line":4},{"name":"GPU2","kind":"gpu","legend_name":null,"island":2,"nvlink_GBps":0,"numa_node":0,"cpu_affinity":"0-13,28-41","nearest_nics":null,"nearest_nic_class":null,"line":5},{"name":"GPU3","kind":"gpu","legend_name":null,"island":3,"nvlink_GBps":0,"numa_node":0,"cpu_affinity":"0-13,28-41","nearest_nics":null,"nearest_nic_class":null,"line":6},{"name":"GPU4","kind":"gpu","legend_name":null,"island":4,"nvlink_GBps":0,"numa_node":1,"cpu_affinity":"14-27,42-55","nearest_nics":null,"nearest_nic_class":null,"line":7},{"name":"GPU5","kind":"gpu","legend_name":null,"island":5,"nvlink_GBps":0,"numa_node":1,"cpu_affinity":"14-27,42-55","nearest_nics":null,"nearest_nic_class":null,"line":8},{"name":"GPU6","kind":"gpu","legend_name":null,"island":6,"nvlink_GBps":0,"numa_node":1,"cpu_affinity":"14-27,42-55","nearest_nics":null,"nearest_nic_class":null,"line":9},{"name":"GPU7","kind":"gpu","legend_name":null,"island":7,"nvlink_GBps":0,"numa_node":1,"cpu_affinity":"14-27,42-55","nearest_nics":null,"nearest_nic_class":null,"line":10}],"nics":[],"matrix":[{"from":"GPU0","to":"GPU1","connection":"PIX","bonds":0,"bw_GBps":25.200000000000003,"weight":null,"hops":null},{"from":"GPU0","to":"GPU2","connection":"PHB","bonds":0,"bw_GBps":18.9,"weight":null,"hops":null},{"from":"GPU0","to":"GPU3","connection":"PHB","bonds":0,"bw_GBps":18.9,"weight":null,"hops":null},{"from":"GPU0","to":"GPU4","connection":"SYS","bonds":0,"bw_GBps":12.600000000000001,"weight":null,"hops":null},{"from":"GPU0","to":"GPU5","connection":"SYS","bonds":0,"bw_GBps":12.600000000000001,"weight":null,"hops":null},{"from":"GPU0","to":"GPU6","connection":"SYS","bonds":0,"bw_GBps":12.600000000000001,"weight":null,"hops":null},{"from":"GPU0","to":"GPU7","connection":"SYS","bonds":0,"bw_GBps":12.600000000000001,"weight":null,"hops":null},{"from":"GPU1","to":"GPU0","connection":"PIX","bonds":0,"bw_GBps":25.200000000000003,"weight":null,"hops":null},{"from":"GPU1","to":"GPU2","connection":"PHB","bonds":0,"bw_GBps":18.9,"weight":null,"hops":null},{"from":"GPU1","to":"GPU3","connection":"PHB","bonds":0,"bw_GBps":18.9,"weight":null,"hops":null},{"from":"GPU1","to":"GPU4","connection":"SYS","bonds":0,"bw_GBps":12.600000000000001,"weight":null,"hops":null},{"from":"GPU1","to":"GPU5","connection":"SYS","bonds":0,"bw_GBps":12.600000000000001,"weight":null,"hops":null},{"from":"GPU1","to":"GPU6","connection":"SYS","bonds":0,"bw_GBps":12.600000000000001,"weight":null,"hops":null},{"from":"GPU1","to":"GPU7","connection":"SYS","bonds":0,"bw_GBps":12.600000000000001,"weight":null,"hops":null},{"from":"GPU2","to":"GPU0","connection":"PHB","bonds":0,"bw_GBps":18.9,"weight":null,"hops":null},{"from":"GPU2","to":"GPU1","connection":"PHB","bonds":0,"bw_GBps":18.9,"weight":null,"hops":null},{"from":"GPU2","to":"GPU3","connection":"PIX","bonds":0,"bw_GBps":25.200000000000003,"weight":null,"hops":null},{"from":"GPU2","to":"GPU4","connection":"SYS","bonds":0,"bw_GBps":12.600000000000001,"weight":null,"hops":null},{"from":"GPU2","to":"GPU5","connection":"SYS","bonds":0,"bw_GBps":12.600000000000001,"weight":null,"hops":null},{"from":"GPU2","to":"GPU6","connection":"SYS","bonds":0,"bw_GBps":12.600000000000001,"weight":null,"hops":null},{"from":"GPU2","to":"GPU7","connection":"SYS","bonds":0,"bw_GBps":12.600000000000001,"weight":null,"hops":null},{"from":"GPU3","to":"GPU0","connection":"PHB","bonds":0,"bw_GBps":18.9,"weight":null,"hops":null},{"from":"GPU3","to":"GPU1","connection":"PHB","bonds":0,"bw_GBps":18.9,"weight":null,"hops":null},{"from":"GPU3","to":"GPU2","connection":"PIX","bonds":0,"bw_GBps":25.200000000000003,"weight":null,"hops":null},{"from":"GPU3","to":"GPU4","connection":"SYS","bonds":0,"bw_GBps":12.600000000000001,"weight":null,"hops":null},{"from":"GPU3","to":"GPU5","connection":"SYS","bonds":0,"bw_GBps":12.600000000000001,"weight":null,"hops":null},{"from":"GPU3","to":"GPU6","connection":"SYS","bonds":0,"bw_GBps":12.600000000000001,"weight":null,"hops":null},{"from":"GPU3","to":"GPU7","connection":"SYS","bonds":0,"bw_GBps":12.600000000000001,"weight":null,"hops":null},{"from":"GPU4","to":"GPU0","connection":"SYS","bonds":0,"bw_GBps":12.600000000000001,"weight":null,"hops":null},{"from":"GPU4","to":"GPU1","connection":"SYS","bonds":0,"bw_GBps":12.600000000000001,"weight":null,"hops":null},{"from":"GPU4","to":"GPU2","connection":"SYS","bonds":0,"bw_GBps":12.600000000000001,"weight":null,"hops":null},{"from":"GPU4","to":"GPU3","connection":"SYS","bonds":0,"bw_GBps":12.600000000000001,"weight":null,"hops":null},{"from":"GPU4","to":"GPU5","connection":"PIX","bonds":0,"bw_GBps":25.200000000000003,"weight":null,"hops":null},{"from":"GPU4","to":"GPU6","connection":"PHB","bonds":0,"bw_GBps":18.9,"weight":null,"hops":null},{"from":"GPU4","to":"GPU7","connection":"PHB","bonds":0,"bw_GBps":18.9,"weight":null,"hops":null},{"from":"GPU5","to":"GPU0","connection":"SYS","bonds":0,"bw_GBps":12.600000000000001,"weight":null,"hops":null},{"from":"GPU5","to":"GPU1","connection":"SYS","bonds":0,"bw_GBps":12.600000000000001,"weight":null,"hops":null},{"from":"GPU5","to":"GPU2","connection":"SYS","bonds":0,"bw_GBps":12.600000000000001,"weight":null,"hops":null},{"from":"GPU5","to":"GPU3","connection":"SYS","bonds":0,"bw_GBps":12.600000000000001,"weight":null,"hops":null},{"from":"GPU5","to":"GPU4","connection":"PIX","bonds":0,"bw_GBps":25.200000000000003,"weight":null,"hops":null},{"from":"GPU5","to":"GPU6","connection":"PHB","bonds":0,"bw_GBps":18.9,"weight":null,"hops":null},{"from":"GPU5","to":"GPU7","connection":"PHB","bonds":0,"bw_GBps":18.9,"weight":null,"hops":null},{"from":"GPU6","to":"GPU0","connection":"SYS","bonds":0,"bw_GBps":12.600000000000001,"weight":null,"hops":null},{"from":"GPU6","to":"GPU1","connection":"SYS","bonds":0,"bw_GBps":12.600000000000001,"weight":null,"hops":null},{"from":"GPU6","to":"GPU2","connection":"SYS","bonds":0,"bw_GBps":12.600000000000001,"weight":null,"hops":null},{"from":"GPU6","to":"GPU3","connection":"SYS","bonds":0,"bw_GBps":12.600000000000001,"weight":null,"hops":null},{"from":"GPU6","to":"GPU4","connection":"PHB","bonds":0,"bw_GBps":18.9,"weight":null,"hops":null},{"from":"GPU6","to":"GPU5","connection":"PHB","bonds":0,"bw_GBps":18.9,"weight":null,"hops":null},{"from":"GPU6","to":"GPU7","connection":"PIX","bonds":0,"bw_GBps":25.200000000000003,"weight":null,"hops":null},{"from":"GPU7","to":"GPU0","connection":"SYS","bonds":0,"bw_GBps":12.600000000000001,"weight":null,"hops":null},{"from":"GPU7","to":"GPU1","connection":"SYS","bonds":0,"bw_GBps":12.600000000000001,"weight":null,"hops":null},{"from":"GPU7","to":"GPU2","connection":"SYS","bonds":0,"bw_GBps":12.600000000000001,"weight":null,"hops":null},{"from":"GPU7","to":"GPU3","connection":"SYS","bonds":0,"bw_GBps":12.600000000000001,"weight":null,"hops":null},{"from":"GPU7","to":"GPU4","connection":"PHB","bonds":0,"bw_GBps":18.9,"weight":null,"hops":null},{"from":"GPU7","to":"GPU5","connection":"PHB","bonds":0,"bw_GBps":18.9,"weight":null,"hops":null},{"from":"GPU7","to":"GPU6","connection":"PIX","bonds":0,"bw_GBps":25.200000000000003,"weight":null,"hops":null}],"findings":[{"severity":"info","code":"topo-gpu-generation","message":"No NVLink; GPU not identified, so PCIe Gen4 is assumed for the PCIe estimates (give the GPU to change it).","next_step":"Give the GPU (sm80, sm90, sm100, or a name such as h100) when the guess is wrong.","lines":"2"},{"severity":"info","code":"topo-no-nvlink","message":"No NVLink at all: P2P over PCIe (4 PIX, 8 PHB, 16 SYS pairs); expect about 25.2 GB/s per direction behind one PCIe switch (PIX), down to 12.6 GB/s across the CPU interconnect (SYS), on PCIe Gen4 (x16 line rate 31.50 GB/s).","next_step":"Measure with nvbandwidth or p2pBandwidthLatencyTest; if NCCL logs show 'via SHM', PCIe P2P is off (IOMMU/ACS, VM): check NCCL_P2P_LEVEL and NCCL_P2P_DISABLE.","lines":"2"},{"severity":"info","code":"topo-tp-groups","message":"Best GPU pairs are behind one PCIe switch (PIX): use them as TP=2 groups: (GPU0, GPU1), (GPU2, GPU3), (GPU4, GPU5), (GPU6, GPU7) (about 25.2 GB/s per direction over PCIe Gen4).","next_step":"Map each TP group onto one of these sets; keep larger TP off this box's PCIe.","lines":"3 4 5 6 7 8 9 10"},{"severity":"info","code":"topo-ep-groups","message":"EP groups within one CPU socket: {GPU0-GPU3}, {GPU4-GPU7} (no SYS pair inside); an all-to-all spanning them crosses the CPU interconnect at about 12.6 GB/s per direction.","next_step":"","lines":"2"},{"severity":"info","code":"topo-avoid-sys","message":"Pairs to avoid: 16 GPU pairs are SYS (e.g. GPU0-GPU4), crossing the CPU interconnect at about 12.6 GB/s per direction; the sets without a SYS pair are {GPU0-GPU3}, {GPU4-GPU7}.","next_step":"Keep TP and EP groups inside one of the sets; only DP or PP traffic should cross.","lines":"3"},{"severity":"info","code":"topo-numa","message":"GPUs on 2 NUMA nodes: NUMA 0: GPU0-GPU3 (CPUs 0-13,28-41); NUMA 1: GPU4-GPU7 (CPUs 14-27,42-55).","next_step":"Bind each rank's threads and host buffers to its GPU's NUMA node (numactl --cpunodebind, or the launcher's CPU binding).","lines":"2"}],"notes":[]}
$ collcalc topo - --gpu b200 < examples/topo_hgx_h100_10nic.txt
8 GPUs, 10 NICs; GPU generation blackwell (50.0 GB/s per NVLink per direction, PCIe Gen5): GPU generation given: blackwell (50 GB/s per NVLink per direction, PCIe Gen5).

        GPU0  GPU1  GPU2  GPU3  GPU4  GPU5  GPU6  GPU7
GPU0       X  NV18  NV18  NV18  NV18  NV18  NV18  NV18
GPU1    NV18     X  NV18  NV18  NV18  NV18  NV18  NV18
GPU2    NV18  NV18     X  NV18  NV18  NV18  NV18  NV18
GPU3    NV18  NV18  NV18     X  NV18  NV18  NV18  NV18
GPU4    NV18  NV18  NV18  NV18     X  NV18  NV18  NV18
GPU5    NV18  NV18  NV18  NV18  NV18     X  NV18  NV18
GPU6    NV18  NV18  NV18  NV18  NV18  NV18     X  NV18
GPU7    NV18  NV18  NV18  NV18  NV18  NV18  NV18     X

NVLink islands:
island  GPUs    links  all-to-all  NVSwitch   per GPU
     0  GPU0-7     18         yes       yes  900 GB/s

device  island  GPU fabric  NUMA  CPUs            nearest NIC  via
GPU0         0    900 GB/s     0  0-55,112-167    NIC0         PIX
GPU1         0    900 GB/s     0  0-55,112-167    NIC1         PIX
GPU2         0    900 GB/s     0  0-55,112-167    NIC2         PIX
GPU3         0    900 GB/s     0  0-55,112-167    NIC5         PIX
GPU4         0    900 GB/s     1  56-111,168-223  NIC6         PIX
GPU5         0    900 GB/s     1  56-111,168-223  NIC7         PIX
GPU6         0    900 GB/s     1  56-111,168-223  NIC8         PIX
GPU7         0    900 GB/s     1  56-111,168-223  NIC9         PIX

Advice:
warning Matrix truncated at row NIC3 (line 14): 11 of 18 rows present; all 8 GPU rows are complete, so GPU pairs and GPU-to-NIC paths are kept, rows NIC3..NIC9 are missing. (line 14)
        next: Paste the whole output of nvidia-smi topo -m (with its NIC Legend) to see NIC-to-NIC paths.
info    GPU generation given: blackwell (50 GB/s per NVLink per direction, PCIe Gen5). (line 2)
info    NVLink island of 8 GPUs (GPU0-GPU7): NV18 between every pair, an NVSwitch fabric: 900 GB/s per direction per GPU (18 links x 50 GB/s). (lines 3 4 5 6 7 8 9 10)
info    Suggested TP groups: {GPU0-GPU7} (TP up to 8 stays inside one NVLink island, 900 GB/s per direction per GPU). (line 3)
info    EP groups: {GPU0-GPU7} (all-to-all over NVLink: every pair NV18, so dispatch and combine run at up to 900 GB/s per direction per GPU). (line 3)
info    Nearest NIC per GPU (best class; +N more at the same class): GPU0->NIC0, GPU1->NIC1, GPU2->NIC2, GPU3->NIC5, GPU4->NIC6, GPU5->NIC7, GPU6->NIC8, GPU7->NIC9. (line 2)
info    GPUs on 2 NUMA nodes: NUMA 0: GPU0-GPU3 (CPUs 0-55,112-167); NUMA 1: GPU4-GPU7 (CPUs 56-111,168-223). (line 2)
        next: Bind each rank's threads and host buffers to its GPU's NUMA node (numactl --cpunodebind, or the launcher's CPU binding).
$ collcalc diagnose examples/nccl_debug_socket_fallback.log
NCCL 2.27.3+cuda12.9, 4 ranks on 4 nodes (1 per node), 1 host seen; 92 of 145 lines from NCCL
network: Socket; channels: 2 collective, 0 NVLS

transport   hops  GDR  as printed    first line
NET/Socket    14    0  NET/Socket/0          87

error   NET/Socket in use because the network plugin failed: Libfabric (v10) reported 'NET/OFI aws-ofi-nccl initialization failed' (line 26); NET/IB found no device (line 30); NCCL fell back to TCP on eth0 (line 33): 14 hops via NET/Socket across 4 nodes. (lines 22 24 26 28 30 33 36 87)
        next: Fix the plugin: check NCCL_NET / NCCL_NET_PLUGIN (set by env to libnccl-net.so) and its provider (aws-ofi-nccl: FI_PROVIDER=efa, fi_info -p efa, the EFA device in the container); for InfiniBand: NCCL_IB_HCA, NCCL_IB_DISABLE, ibv_devices.
warning Bootstrap took 59.8 s (line 39, over 10 s): ranks waited for each other or for the bootstrap network. (line 39)
        next: Start all ranks together (launcher, pod scheduling) and check the bootstrap interface (NCCL_SOCKET_IFNAME) is reachable between hosts, without a firewall in the way.
info    Environment NCCL echoed (1 variable): NCCL_SOCKET_IFNAME=^docker0,lo. (line 3)
info    NCCL 2.27.3+cuda12.9 (CUDA driver 13000); 4 ranks on 4 nodes, 1 local; 1 host seen; network Socket; 2 channels; 2 trees; isAllDirectP2p 0; hops: 14 via NET/Socket/0. (lines 6 36 72 81)
$ collcalc diagnose examples/nccl_debug_socket_fallback.log --strict
NCCL 2.27.3+cuda12.9, 4 ranks on 4 nodes (1 per node), 1 host seen; 92 of 145 lines from NCCL
network: Socket; channels: 2 collective, 0 NVLS

transport   hops  GDR  as printed    first line
NET/Socket    14    0  NET/Socket/0          87

error   NET/Socket in use because the network plugin failed: Libfabric (v10) reported 'NET/OFI aws-ofi-nccl initialization failed' (line 26); NET/IB found no device (line 30); NCCL fell back to TCP on eth0 (line 33): 14 hops via NET/Socket across 4 nodes. (lines 22 24 26 28 30 33 36 87)
        next: Fix the plugin: check NCCL_NET / NCCL_NET_PLUGIN (set by env to libnccl-net.so) and its provider (aws-ofi-nccl: FI_PROVIDER=efa, fi_info -p efa, the EFA device in the container); for InfiniBand: NCCL_IB_HCA, NCCL_IB_DISABLE, ibv_devices.
warning Bootstrap took 59.8 s (line 39, over 10 s): ranks waited for each other or for the bootstrap network. (line 39)
        next: Start all ranks together (launcher, pod scheduling) and check the bootstrap interface (NCCL_SOCKET_IFNAME) is reachable between hosts, without a firewall in the way.
info    Environment NCCL echoed (1 variable): NCCL_SOCKET_IFNAME=^docker0,lo. (line 3)
info    NCCL 2.27.3+cuda12.9 (CUDA driver 13000); 4 ranks on 4 nodes, 1 local; 1 host seen; network Socket; 2 channels; 2 trees; isAllDirectP2p 0; hops: 14 via NET/Socket/0. (lines 6 36 72 81)
[stderr] collcalc diagnose: --strict: 1 error finding (net-socket-fallback)
[exit 3]
$ collcalc diagnose examples/nccl_debug_socket_fallback.log --format json
{"schema_version":1,"command":"diagnose","query":{"file":"examples/nccl_debug_socket_fallback.log","lines":145,"nccl_lines":92,"nccl_version":"2.27.3+cuda12.9","cuda_driver":"13000","network":"Socket","net_plugin":"Libfabric (v10)","nranks":4,"nnodes":4,"local_ranks":1,"hosts":1,"channels":2,"nvls_channels":0,"all_direct_p2p":false},"transports":[{"transport":"NET/Socket","hops":14,"gdr_hops":0,"example":"NET/Socket/0","first_line":87}],"findings":[{"severity":"error","code":"net-socket-fallback","message":"NET/Socket in use because the network plugin failed: Libfabric (v10) reported 'NET/OFI aws-ofi-nccl initialization failed' (line 26); NET/IB found no device (line 30); NCCL fell back to TCP on eth0 (line 33): 14 hops via NET/Socket across 4 nodes.","next_step":"Fix the plugin: check NCCL_NET / NCCL_NET_PLUGIN (set by env to libnccl-net.so) and its provider (aws-ofi-nccl: FI_PROVIDER=efa, fi_info -p efa, the EFA device in the container); for InfiniBand: NCCL_IB_HCA, NCCL_IB_DISABLE, ibv_devices.","lines":"22 24 26 28 30 33 36 87"},{"severity":"warning","code":"slow-bootstrap","message":"Bootstrap took 59.8 s (line 39, over 10 s): ranks waited for each other or for the bootstrap network.","next_step":"Start all ranks together (launcher, pod scheduling) and check the bootstrap interface (NCCL_SOCKET_IFNAME) is reachable between hosts, without a firewall in the way.","lines":"39"},{"severity":"info","code":"env","message":"Environment NCCL echoed (1 variable): NCCL_SOCKET_IFNAME=^docker0,lo.","next_step":"","lines":"3"},{"severity":"info","code":"nccl-summary","message":"NCCL 2.27.3+cuda12.9 (CUDA driver 13000); 4 ranks on 4 nodes, 1 local; 1 host seen; network Socket; 2 channels; 2 trees; isAllDirectP2p 0; hops: 14 via NET/Socket/0.","next_step":"","lines":"6 36 72 81"}],"notes":[]}
$ collcalc diagnose examples/my-links.json
[stderr] collcalc diagnose: examples/my-links.json: not an NCCL_DEBUG log: no 'NCCL INFO' or 'NCCL WARN' line in 35 lines (run with NCCL_DEBUG=INFO and keep the 'host:pid:tid [dev] NCCL INFO ...' lines)
[exit 1]
$ collcalc allreduce --size 1GB --topo examples/topo_pcie_switch_pairs.txt --algo ring --algo tree
all-reduce of 1.00 GB (1,000,000,000 bytes) on 8 GPUs over topo:pcie
link topo:pcie: 12.6 GB/s, alpha 5.70 us per step; per-direction bandwidth

algorithm  nccl  steps  sent/GPU  recv/GPU  latency  bandwidth    time      algbw      busbw  dominant
ring        yes     14   1.75 GB   1.75 GB  79.8 us     139 ms  139 ms  7.20 GB/s  12.6 GB/s  bandwidth  <- fastest
tree        yes      6   1.75 GB   1.75 GB  34.2 us     151 ms  151 ms  6.62 GB/s  11.6 GB/s  bandwidth
$ collcalc allreduce --size 1GB --gpus 16 --topo examples/topo_hgx_h100_10nic.txt --nodes 2 --inter ib-ndr --algo ring --format csv
size_bytes,op,algorithm,fastest,in_nccl,gpus,nodes,bw_basis,steps,bytes_sent_per_gpu,bytes_received_per_gpu,others_differ,bytes_sent_other_gpu,bytes_received_other_gpu,latency_us,bandwidth_us,time_us,algbw_GBps,busbw_factor,busbw_GBps,dominant,layers,per_layer,total_latency_us,total_bandwidth_us,total_time_us,note,phases
1000000000,allreduce,ring,true,true,16,2,per-direction,30,1875000000,1875000000,false,1875000000,1875000000,84,4687.5,4771.5,209.57770093262076,1.875,392.9581892486639,bandwidth,1,1,84,4687.5,4771.5,,"[{""label"":""reduce-scatter"",""link"":""topo:nv18+ib-ndr"",""scope"":""intra+inter"",""stage"":1,""steps"":15,""alpha_us"":2.8,""bytes_sent"":937500000,""bytes_received"":937500000,""bw_GBps"":400,""efficiency"":1,""latency_us"":42,""bandwidth_us"":2343.75,""time_us"":2385.75,""note"":""flat ring over 2 nodes: min(topo:nv18 450 GB/s, 8 NICs x ib-ndr 50 GB/s) = 400 GB/s; per pass 14 hops of 2 us and 1 of 14 us, alpha = their mean 2.8 us""},{""label"":""all-gather"",""link"":""topo:nv18+ib-ndr"",""scope"":""intra+inter"",""stage"":2,""steps"":15,""alpha_us"":2.8,""bytes_sent"":937500000,""bytes_received"":937500000,""bw_GBps"":400,""efficiency"":1,""latency_us"":42,""bandwidth_us"":2343.75,""time_us"":2385.75,""note"":""flat ring over 2 nodes: min(topo:nv18 450 GB/s, 8 NICs x ib-ndr 50 GB/s) = 400 GB/s; per pass 14 hops of 2 us and 1 of 14 us, alpha = their mean 2.8 us""}]"
$ collcalc topo tests/fuzz/corpus/topo/rocm_pairs_pcie.txt
4 GPUs, 0 NICs; GPU generation cdna3 (64.0 GB/s per xGMI link per direction, PCIe Gen5): rocm-smi --showtopo names no GPU: MI300X-class (CDNA3, xGMI 64 GB/s per link per direction) assumed; give the GPU (mi355x) for CDNA4's 76.8 GB/s.

        GPU0  GPU1  GPU2  GPU3
GPU0       X  XGMI   PHB   SYS
GPU1    XGMI     X   PHB   SYS
GPU2     PHB   PHB     X  XGMI
GPU3     SYS   SYS  XGMI     X

xGMI islands:
island  GPUs    links  all-to-all  NVSwitch    per GPU
     0  GPU0-1      1         yes         -  64.0 GB/s
     1  GPU2-3      1         yes         -  64.0 GB/s

device  island  GPU fabric  NUMA  CPUs  nearest NIC  via
GPU0         0   64.0 GB/s     0        -            -
GPU1         0   64.0 GB/s     0        -            -
GPU2         1   64.0 GB/s     0        -            -
GPU3         1   64.0 GB/s     1        -            -

Advice:
info    rocm-smi --showtopo names no GPU: MI300X-class (CDNA3, xGMI 64 GB/s per link per direction) assumed; give the GPU (mi355x) for CDNA4's 76.8 GB/s. (line 3)
        next: Give the GPU (mi300x, mi355x, gfx942, gfx950) when the guess is wrong.
info    xGMI full mesh of 2 GPUs (GPU0, GPU1): one xGMI link between every pair, 64 GB/s per direction per pair, 64 GB/s per GPU to its 1 peer together; one ring crosses one link per GPU and direction. (lines 4 5)
        next: RCCL spreads its rings over different links (channels); all-to-all uses every link at once.
info    xGMI full mesh of 2 GPUs (GPU2, GPU3): one xGMI link between every pair, 64 GB/s per direction per pair, 64 GB/s per GPU to its 1 peer together; one ring crosses one link per GPU and direction. (lines 6 7)
        next: RCCL spreads its rings over different links (channels); all-to-all uses every link at once.
info    Suggested TP groups: {GPU0, GPU1}, {GPU2, GPU3} (TP up to 2 stays inside one xGMI island, 64 GB/s per direction per GPU). (line 4)
        next: A TP group spanning islands runs at the PCIe path between them.
info    EP groups: (GPU0, GPU1), (GPU2, GPU3) (all-to-all over xGMI: every pair xGMI x1, so dispatch and combine run at up to 64 GB/s per direction per GPU). (line 4)
info    Pairs to avoid: 2 GPU pairs are SYS (e.g. GPU0-GPU3), crossing the CPU interconnect at about 25.2 GB/s per direction; the sets without a SYS pair are {GPU0-GPU3}. (line 4)
        next: Keep TP and EP groups inside one of the sets; only DP or PP traffic should cross.
info    GPUs on 2 NUMA nodes: NUMA 0: GPU0-GPU2; NUMA 1: GPU3. (line 3)
        next: Bind each rank's threads and host buffers to its GPU's NUMA node (numactl --cpunodebind, or the launcher's CPU binding).
