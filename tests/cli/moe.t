$ collcalc moe --model deepseek-v3 --ep 32 --tokens 128 --mode low-latency --platform hgx-h100 --gpus-per-node 24
deepseek-v3 MoE layer, EP 32 over 2 nodes (24 + 8 GPUs), 128 tokens per rank, low-latency mode
bytes per selected (token, expert): dispatch 7408 (fp8), combine 14336 (bf16)
selections stay on the GPU 3.1%, cross NVLink 21.9%, cross the network 75.0% (a GPU of the 8-GPU node; 25.0% on the full nodes)
dispatch 7.59 MB received per GPU in 153 us; combine 14.7 MB sent in 271 us (busiest GPU, imbalance 1.00x from uniform)
all-to-all keeps 7.27 GPUs busy per token (174 kB moved); scattering the experts and all-reducing would involve all 32 GPUs (114 MB per GPU)
DeepEP would print 49.7 / 54.1 GB/s (dispatch / combine: bytes counted per selection, its own GPU's and node's included); the NIC share carries 37.3 / 40.6 GB/s (75.0% of the selections)
leaving the NVLink domain (24 GPUs): EP 16 dispatch + combine 94.8 us, EP 32 (24 + 8 GPUs) 424 us (75 % of the busiest GPU's selections on the network, 4.47x the time)

warning EP 32 spans 2 nodes (24 + 8 GPUs): 75 % of selections cross the network on the 8-GPU node, 25 % on the full ones
        next: keep EP inside one 24-GPU NVLink domain if it fits
$ collcalc moe --model deepseek-v3 --ep 32 --tokens 128 --mode low-latency --platform hgx-h100 --gpus-per-node 16
deepseek-v3 MoE layer, EP 32 over 2 nodes x 16 GPUs, 128 tokens per rank, low-latency mode
bytes per selected (token, expert): dispatch 7408 (fp8), combine 14336 (bf16)
selections stay on the GPU 3.1%, cross NVLink 46.9%, cross the network 50.0%
dispatch 7.59 MB received per GPU in 107 us; combine 14.7 MB sent in 187 us (busiest GPU, imbalance 1.00x from uniform)
all-to-all keeps 7.27 GPUs busy per token (174 kB moved); scattering the experts and all-reducing would involve all 32 GPUs (114 MB per GPU)
DeepEP would print 71.1 / 78.6 GB/s (dispatch / combine: bytes counted per selection, its own GPU's and node's included); the NIC share carries 35.6 / 39.3 GB/s (50.0% of the selections)
leaving the NVLink domain (16 GPUs): EP 16 dispatch + combine 94.8 us, EP 32 294 us (50 % of the busiest GPU's selections on the network, 3.09x the time)

warning EP 32 spans 2 nodes: 50 % of selections cross the network
        next: keep EP inside one 16-GPU NVLink domain if it fits
$ collcalc moe --model deepseek-v3 --ep 32 --tokens 128 --mode low-latency --platform hgx-h100 --gpus-per-node 24 --format json
{"schema_version":1,"command":"moe","query":{"model":"deepseek-v3","ep":32,"tokens":128,"mode":"low-latency","dispatch_dtype":"fp8","combine_dtype":"bf16","gpus_per_node":24,"intra_link":"nvlink4","inter_link":"ib-ndr","redundant_experts":0,"split_batch":1},"results":[{"ep":32,"nodes":2,"gpus_per_node":24,"gpus_in_last_node":8,"busiest_node_gpus":8,"fabric":"NVLink","mode":"low-latency","slots":256,"slots_per_gpu":8,"expert_memory_increase":0,"dispatch_bytes_per_selection":7408,"combine_bytes_per_selection":14336,"selections_per_gpu":1024,"share_local":0.03125,"share_nvlink":0.21875,"share_network":0.75,"share_network_full":0.25,"share_network_last":0.75,"nodes_touched_per_token":1.7857142857142858,"remote_nodes_per_token":1,"bytes_local":237056,"bytes_nvlink":1659392,"bytes_network":5689344,"dispatch_bytes_per_gpu":7585792,"combine_bytes_per_gpu":14680064,"dispatch_us":152.50539130434782,"dispatch_latency_us":28.823999999999998,"dispatch_bandwidth_us":123.68139130434783,"combine_us":271.2728695652174,"combine_latency_us":31.924,"combine_bandwidth_us":239.3488695652174,"imbalance":1,"imbalance_static":1,"imbalance_rebalanced":1,"imbalance_from":"uniform","a2a_gpus_busy_per_token":7.2667999173528806,"a2a_bytes_per_token":173952,"allreduce_gpus":32,"allreduce_bytes_per_gpu":113770496,"allreduce_us":429.1589565217391,"serial_us":423.7782608695652,"timeline_us":423.7782608695652,"hidden_us":0,"deepep_counts":"selections","deepep_dispatch_GBps":49.7411398713203,"deepep_combine_GBps":54.11548904071563,"nic_dispatch_GBps":37.30585490349022,"nic_combine_GBps":40.586616780536716,"domain_gpus":24,"domain_inside_ep":16,"domain_inside_us":94.84960000000001,"domain_inside_share_network":0,"domain_outside_ep":32,"domain_outside_us":423.7782608695652,"domain_outside_share_network":0.75,"domain_outside_over_inside":4.467897185328828}],"timeline":[{"label":"router","half":0,"communication":false,"start_us":0,"end_us":0},{"label":"dispatch","half":0,"communication":true,"start_us":0,"end_us":152.50539130434782},{"label":"experts","half":0,"communication":false,"start_us":152.50539130434782,"end_us":152.50539130434782},{"label":"combine","half":0,"communication":true,"start_us":152.50539130434782,"end_us":423.7782608695652}],"findings":[{"severity":"warning","code":"ep-crosses-node","message":"EP 32 spans 2 nodes (24 + 8 GPUs): 75 % of selections cross the network on the 8-GPU node, 25 % on the full ones","next_step":"keep EP inside one 24-GPU NVLink domain if it fits","lines":""}],"notes":[]}
$ collcalc moe --model kimi-k2 --ep 96 --tokens 128 --platform gb300-nvl72 --format csv
ep,nodes,gpus_per_node,gpus_in_last_node,busiest_node_gpus,fabric,mode,slots,slots_per_gpu,expert_memory_increase,dispatch_bytes_per_selection,combine_bytes_per_selection,selections_per_gpu,share_local,share_nvlink,share_network,share_network_full,share_network_last,nodes_touched_per_token,remote_nodes_per_token,bytes_local,bytes_nvlink,bytes_network,dispatch_bytes_per_gpu,combine_bytes_per_gpu,dispatch_us,dispatch_latency_us,dispatch_bandwidth_us,combine_us,combine_latency_us,combine_bandwidth_us,imbalance,imbalance_static,imbalance_rebalanced,imbalance_from,a2a_gpus_busy_per_token,a2a_bytes_per_token,allreduce_gpus,allreduce_bytes_per_gpu,allreduce_us,serial_us,timeline_us,hidden_us,deepep_counts,deepep_dispatch_GBps,deepep_combine_GBps,nic_dispatch_GBps,nic_combine_GBps,domain_gpus,domain_inside_ep,domain_inside_us,domain_inside_share_network,domain_outside_ep,domain_outside_us,domain_outside_share_network,domain_outside_over_inside
96,2,72,24,24,NVLink,normal,384,4,0,7408,14336,1024,0.010416666666666666,0.23958333333333334,0.75,0.25,0.75,1.9023155809338959,0.9999878299298189,79018.66666666666,7269717.333333334,948212.4600473726,7585792,14680064,64.10290511848245,20,44.10290511848245,105.34817059645847,20,85.34817059645847,1,1,1,uniform,7.782967873072849,173952,96,348651520,733.0767149758453,169.45107571494094,169.45107571494094,0,rdma,28.13946241720917,33.13550002600327,14.79203568535273,17.41829646812628,72,64,75.07104,0,96,169.45107571494094,0.75,2.2572096472213645
$ collcalc moe --model qwen3-235b-a22b --ep 16 --tokens 256 --platform mi355x-8x
qwen3-235b-a22b MoE layer, EP 16 over 2 nodes x 8 GPUs, 256 tokens per rank, normal mode
bytes per selected (token, expert): dispatch 4240 (fp8), combine 8192 (bf16)
selections stay on the GPU 6.2%, cross xGMI 43.8%, cross the network 50.0%
dispatch 8.68 MB received per GPU in 70.3 us; combine 16.8 MB sent in 117 us (busiest GPU, imbalance 1.00x from uniform)
all-to-all keeps 6.6 GPUs busy per token (99.5 kB moved); scattering the experts and all-reducing would involve all 16 GPUs (62.9 MB per GPU)
DeepEP's accounting (DeepEP runs on NVIDIA GPUs; ROCm's EP library is MORI-EP) would print 30.8 / 35.7 GB/s "RDMA" (dispatch / combine: bytes counted per destination node, its own included, 1.99 nodes per token); the NIC share carries 15.4 / 17.8 GB/s (1.00 remote nodes)
leaving the xGMI domain (8 GPUs): EP 8 dispatch + combine 93.1 us, EP 16 188 us (50 % of the busiest GPU's selections on the network, 2.01x the time)

warning EP 16 spans 2 nodes: 50 % of selections cross the network
        next: keep EP inside one node (8 GPUs on xGMI) if it fits
$ collcalc moe --model qwen3-235b-a22b --ep 8 --tokens 1 --platform mi355x-8x --imbalance 8
qwen3-235b-a22b MoE layer, EP 8 over 1 node x 8 GPUs, 1 token per rank, normal mode
bytes per selected (token, expert): dispatch 4240 (fp8), combine 8192 (bf16)
selections stay on the GPU 12.5%, cross xGMI 87.5%, cross the network 0.0%
dispatch 271 kB received per GPU in 20.6 us; combine 524 kB sent in 21.1 us (busiest GPU, imbalance 8.00x from given)
all-to-all keeps 5.34 GPUs busy per token (99.5 kB moved); scattering the experts and all-reducing would involve all 8 GPUs (115 kB per GPU)
DeepEP's accounting (DeepEP runs on NVIDIA GPUs; ROCm's EP library is MORI-EP) would print 1.4 / 2.7 GB/s xGMI (dispatch / combine: bytes received from the other GPUs)
leaving the xGMI domain (8 GPUs): EP 8 dispatch + combine 41.7 us, EP 16 44.6 us (50 % of the busiest GPU's selections on the network, 1.07x the time)

warning the hottest GPU carries 8.00x the mean load: dispatch and combine take that much longer
        next: add redundant experts (EPLB) or rebalance the placement
info    at 1 token per GPU the normal kernels are latency-bound
        next: use the low-latency kernels for decode-size batches
$ collcalc moe --model deepseek-v3 --ep 32 --tokens 128 --platform hgx-h100 --zipf 50
[stderr] collcalc moe: --zipf: '50' is out of range: must be between 0 and 10 (see 'collcalc moe --help')
[exit 2]
$ collcalc moe --model deepseek-v3 --ep 32 --tokens 128 --platform hgx-h100 --redundant-experts 100000
[stderr] collcalc moe: --redundant-experts: '100000' is out of range: must be between 0 and 4096 (see 'collcalc moe --help')
[exit 2]
$ collcalc moe --model deepseek-v3 --ep 32 --tokens 128 --platform hgx-h100 --sm-slowdown 200
[stderr] collcalc moe: --sm-slowdown: '200' is out of range: must be between 1 and 100 (see 'collcalc moe --help')
[exit 2]
$ collcalc moe --model deepseek-v3 --ep 1 --tokens 128 --platform hgx-h100
[stderr] collcalc moe: --ep must be at least 2 for a dispatch (got 1) (see 'collcalc moe --help')
[exit 2]
$ collcalc moe --model deepseek-v3 --ep 8 --tokens 4096 --platform hgx-h100 --imbalance 20
[stderr] collcalc moe: --imbalance (max/mean) must be between 1 and 8, the EP degree (all selections on one GPU) (got 20) (see 'collcalc moe --help')
[exit 2]
$ collcalc moe --model qwen3-235b-a22b --ep 32 --tokens 256 --platform hgx-h20 --mode low-latency
qwen3-235b-a22b MoE layer, EP 32 over 4 nodes x 8 GPUs, 256 tokens per rank, low-latency mode
bytes per selected (token, expert): dispatch 4240 (fp8), combine 8192 (bf16)
selections stay on the GPU 3.1%, cross NVLink 21.9%, cross the network 75.0%
dispatch 8.68 MB received per GPU in 334 us; combine 16.8 MB sent in 601 us (busiest GPU, imbalance 1.00x from uniform)
all-to-all keeps 7.36 GPUs busy per token (99.5 kB moved); scattering the experts and all-reducing would involve all 32 GPUs (130 MB per GPU)
DeepEP would print 26.0 / 27.9 GB/s (dispatch / combine: bytes counted per selection, its own GPU's and node's included); the NIC share carries 19.5 / 20.9 GB/s (75.0% of the selections)
leaving the NVLink domain (8 GPUs): EP 8 dispatch + combine 159 us, EP 16 654 us (50 % of the busiest GPU's selections on the network, 4.12x the time)

warning EP 32 spans 4 nodes: 75 % of selections cross the network
        next: keep EP inside one NVLink domain (e.g. a GB200 NVL72) if it fits
$ collcalc moe --model deepseek-v3 --ep 96 --redundant-experts 32 --tokens 128 --platform gb200-nvl72 --mode low-latency --format json
{"schema_version":1,"command":"moe","query":{"model":"deepseek-v3","ep":96,"tokens":128,"mode":"low-latency","dispatch_dtype":"fp8","combine_dtype":"bf16","gpus_per_node":72,"intra_link":"nvlink5","inter_link":"ib-ndr","redundant_experts":32,"split_batch":1},"results":[{"ep":96,"nodes":2,"gpus_per_node":72,"gpus_in_last_node":24,"busiest_node_gpus":24,"fabric":"NVLink","mode":"low-latency","slots":288,"slots_per_gpu":3,"expert_memory_increase":0.125,"dispatch_bytes_per_selection":7408,"combine_bytes_per_selection":14336,"selections_per_gpu":1024,"share_local":0.010416666666666666,"share_nvlink":0.23958333333333334,"share_network":0.75,"share_network_full":0.25,"share_network_last":0.75,"nodes_touched_per_token":1.7857142857142858,"remote_nodes_per_token":1,"bytes_local":79018.66666666666,"bytes_nvlink":1817429.3333333335,"bytes_network":5689344,"dispatch_bytes_per_gpu":7585792,"combine_bytes_per_gpu":14680064,"dispatch_us":152.50539130434782,"dispatch_latency_us":28.823999999999998,"dispatch_bandwidth_us":123.68139130434783,"combine_us":277.6728695652174,"combine_latency_us":38.324,"combine_bandwidth_us":239.3488695652174,"imbalance":1,"imbalance_static":1,"imbalance_rebalanced":1,"imbalance_from":"uniform","a2a_gpus_busy_per_token":7.817955717132616,"a2a_bytes_per_token":173952,"allreduce_gpus":96,"allreduce_bytes_per_gpu":348651520,"allreduce_us":733.0767149758453,"serial_us":430.17826086956524,"timeline_us":430.17826086956524,"hidden_us":0,"deepep_counts":"selections","deepep_dispatch_GBps":49.7411398713203,"deepep_combine_GBps":52.86819710901599,"nic_dispatch_GBps":37.30585490349022,"nic_combine_GBps":39.65114783176199,"domain_gpus":72,"domain_inside_ep":72,"domain_inside_us":76.72830814814816,"domain_inside_share_network":0,"domain_outside_ep":96,"domain_outside_us":430.17826086956524,"domain_outside_share_network":0.75,"domain_outside_over_inside":5.606513049120941}],"timeline":[{"label":"router","half":0,"communication":false,"start_us":0,"end_us":0},{"label":"dispatch","half":0,"communication":true,"start_us":0,"end_us":152.50539130434782},{"label":"experts","half":0,"communication":false,"start_us":152.50539130434782,"end_us":152.50539130434782},{"label":"combine","half":0,"communication":true,"start_us":152.50539130434782,"end_us":430.17826086956524}],"findings":[{"severity":"warning","code":"ep-crosses-node","message":"EP 96 spans 2 nodes (72 + 24 GPUs): 75 % of selections cross the network on the 24-GPU node, 25 % on the full ones","next_step":"keep EP inside one 72-GPU NVLink domain if it fits","lines":""},{"severity":"info","code":"redundant-expert-memory","message":"32 redundant experts: 288 slots (3 per GPU), expert weight memory +12.5 %","next_step":"","lines":""}],"notes":[]}
$ collcalc moe --model deepseek-v3 --ep 8 --tokens 128 --platform l40s-8x-pcie --mode low-latency
deepseek-v3 MoE layer, EP 8 over 1 node x 8 GPUs, 128 tokens per rank, low-latency mode
bytes per selected (token, expert): dispatch 7408 (fp8), combine 14336 (bf16)
selections stay on the GPU 12.5%, cross PCIe 87.5%, cross the network 0.0%
dispatch 7.59 MB received per GPU in 301 us; combine 14.7 MB sent in 555 us (busiest GPU, imbalance 1.00x from uniform)
all-to-all keeps 5.29 GPUs busy per token (174 kB moved); scattering the experts and all-reducing would involve all 8 GPUs (25.7 MB per GPU)
DeepEP's accounting (DeepEP's README requires NVLink between a node's GPUs) would print 25.2 / 26.5 GB/s (dispatch / combine: bytes counted per selection, its own GPU's included)
leaving the node (8 GPUs on PCIe): EP 8 dispatch + combine 856 us, EP 16 2.00 ms (50 % of the busiest GPU's selections on the network, 2.34x the time)
$ collcalc moe --model deepseek-v3 --ep 16 --tokens 4096 --platform hgx-h800 --split-batch 2
deepseek-v3 MoE layer, EP 16 over 2 nodes x 8 GPUs, 4096 tokens per rank, normal mode
bytes per selected (token, expert): dispatch 7408 (fp8), combine 14336 (bf16)
selections stay on the GPU 6.2%, cross NVLink 43.8%, cross the network 50.0%
dispatch 243 MB received per GPU in 1.41 ms; combine 470 MB sent in 2.71 ms (busiest GPU, imbalance 1.00x from uniform)
all-to-all keeps 6.52 GPUs busy per token (174 kB moved); scattering the experts and all-reducing would involve all 16 GPUs (1.76 GB per GPU)
DeepEP would print 42.4 / 42.7 GB/s "RDMA" (dispatch / combine: bytes counted per destination node, its own included, 1.97 nodes per token); the NIC share carries 21.2 / 21.3 GB/s (0.99 remote nodes)
leaving the NVLink domain (8 GPUs): EP 8 dispatch + combine 4.04 ms, EP 16 4.12 ms (50 % of the busiest GPU's selections on the network, 1.02x the time)

timeline (split 2): 4.16 ms end to end vs 4.12 ms serial; 40.0 us slower (two-batch overlap hides communication only behind expert compute: give --expert-time)
step        comm    start      end
router A       -     0 us     0 us
router B       -     0 us     0 us
dispatch A   yes     0 us   716 us
dispatch B   yes   716 us  1.43 ms
experts A      -   716 us   716 us
experts B      -  1.43 ms  1.43 ms
combine A    yes  1.43 ms  2.80 ms
combine B    yes  2.80 ms  4.16 ms

warning EP 16 spans 2 nodes: 50 % of selections cross the network
        next: keep EP inside one NVLink domain (e.g. a GB200 NVL72) if it fits
$ collcalc moe --model deepseek-v3 --ep 16 --tokens 4096 --platform hgx-h800 --imbalance 16
deepseek-v3 MoE layer, EP 16 over 2 nodes x 8 GPUs, 4096 tokens per rank, normal mode
bytes per selected (token, expert): dispatch 7408 (fp8), combine 14336 (bf16)
selections stay on the GPU 6.2%, cross NVLink 43.8%, cross the network 50.0%
dispatch 3.88 GB received per GPU in 22.3 ms; combine 7.52 GB sent in 43.1 ms (busiest GPU, imbalance 16.0x from given)
all-to-all keeps 6.52 GPUs busy per token (174 kB moved); scattering the experts and all-reducing would involve all 16 GPUs (1.76 GB per GPU)
DeepEP would print 2.7 / 2.7 GB/s "RDMA" (dispatch / combine: every rank's own tokens over the hottest GPU's time, bytes counted per destination node, its own included, 1.97 nodes per token); the hottest GPU's NIC share carries 21.5 / 21.5 GB/s (0.99 remote nodes)
leaving the NVLink domain (8 GPUs): EP 8 dispatch + combine 32.0 ms, EP 16 65.4 ms (50 % of the busiest GPU's selections on the network, 2.04x the time)

warning EP 16 spans 2 nodes: 50 % of selections cross the network
        next: keep EP inside one NVLink domain (e.g. a GB200 NVL72) if it fits
warning the hottest GPU carries 16.00x the mean load: dispatch and combine take that much longer
        next: add redundant experts (EPLB) or rebalance the placement
$ collcalc moe --model deepseek-v3 --ep 12 --redundant-experts 8 --tokens 4096 --platform hgx-h800
deepseek-v3 MoE layer, EP 12 over 2 nodes (8 + 4 GPUs), 4096 tokens per rank, normal mode
bytes per selected (token, expert): dispatch 7408 (fp8), combine 14336 (bf16)
selections stay on the GPU 8.3%, cross NVLink 25.0%, cross the network 66.7% (a GPU of the 4-GPU node; 33.3% on the full nodes)
dispatch 243 MB received per GPU in 1.43 ms; combine 470 MB sent in 2.75 ms (busiest GPU, imbalance 1.00x from uniform)
264 slots for 256 experts: expert weight memory +3.1%; max/mean load 1.00x static -> 1.00x rebalanced
all-to-all keeps 6.08 GPUs busy per token (174 kB moved); scattering the experts and all-reducing would involve all 12 GPUs (1.29 GB per GPU)
DeepEP's accounting (DeepEP cannot run this EP size) would print 41.6 / 41.9 GB/s "RDMA" (dispatch / combine: bytes counted per destination node, its own included, 1.96 nodes per token); the NIC share carries 21.2 / 21.3 GB/s (1.00 remote nodes)
leaving the NVLink domain (8 GPUs): EP 8 dispatch + combine 4.04 ms, EP 24 4.18 ms (67 % of the busiest GPU's selections on the network, 1.04x the time)

warning EP 12 spans 2 nodes (8 + 4 GPUs): 67 % of selections cross the network on the 4-GPU node, 33 % on the full ones
        next: keep EP inside one NVLink domain (e.g. a GB200 NVL72) if it fits
warning DeepEP cannot run EP 12: past 8 ranks its Buffer needs a multiple of 8 (whole groups of 8 GPUs); the DeepEP figures are its accounting only
        next: run EP 8 or EP 16
info    8 redundant experts: 264 slots (22 per GPU), expert weight memory +3.1 %
$ collcalc moe --model mixtral-8x7b --ep 8 --tokens 4096 --platform hgx-h100 --format json
{"schema_version":1,"command":"moe","query":{"model":"mixtral-8x7b","ep":8,"tokens":4096,"mode":"normal","dispatch_dtype":"fp8","combine_dtype":"bf16","gpus_per_node":8,"intra_link":"nvlink4","inter_link":"ib-ndr","redundant_experts":0,"split_batch":1},"results":[{"ep":8,"nodes":1,"gpus_per_node":8,"gpus_in_last_node":8,"busiest_node_gpus":8,"fabric":"NVLink","mode":"normal","slots":8,"slots_per_gpu":1,"expert_memory_increase":0,"dispatch_bytes_per_selection":4240,"combine_bytes_per_selection":8192,"selections_per_gpu":8192,"share_local":0.125,"share_nvlink":0.875,"share_network":0,"share_network_full":0,"share_network_last":0,"nodes_touched_per_token":1,"remote_nodes_per_token":0,"bytes_local":4341760,"bytes_nvlink":30392320,"bytes_network":0,"dispatch_bytes_per_gpu":34734080,"combine_bytes_per_gpu":67108864,"dispatch_us":106.58780626780627,"dispatch_latency_us":20,"dispatch_bandwidth_us":86.58780626780627,"combine_us":187.29417663817665,"combine_latency_us":20,"combine_bandwidth_us":167.29417663817665,"imbalance":1,"imbalance_static":1,"imbalance_rebalanced":1,"imbalance_from":"uniform","a2a_gpus_busy_per_token":2,"a2a_bytes_per_token":24864,"allreduce_gpus":8,"allreduce_bytes_per_gpu":469762048,"allreduce_us":675.08864,"serial_us":293.8819829059829,"timeline_us":293.8819829059829,"hidden_us":0,"deepep_counts":"scale-up","deepep_dispatch_GBps":285.1388077510296,"deepep_combine_GBps":313.51885602635923,"nic_dispatch_GBps":null,"nic_combine_GBps":null,"domain_gpus":null,"domain_inside_ep":null,"domain_inside_us":null,"domain_inside_share_network":null,"domain_outside_ep":null,"domain_outside_us":null,"domain_outside_share_network":null,"domain_outside_over_inside":null}],"timeline":[{"label":"router","half":0,"communication":false,"start_us":0,"end_us":0},{"label":"dispatch","half":0,"communication":true,"start_us":0,"end_us":106.58780626780627},{"label":"experts","half":0,"communication":false,"start_us":106.58780626780627,"end_us":106.58780626780627},{"label":"combine","half":0,"communication":true,"start_us":106.58780626780627,"end_us":293.8819829059829}],"findings":[],"notes":[]}
