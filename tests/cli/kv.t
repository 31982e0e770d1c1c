$ collcalc kv --model llama-3-70b --tokens 8k --tp 8 --platform hgx-h100 --backend nccl --no-gdr
llama-3-70b, bf16 KV cache: 327680 bytes (328 kB) per token (gqa)
8192 tokens: 2684354560 bytes (2.68 GB) unique; 336 MB per shard on TP 8 x PP 1; 2.68 GB shipped

transfer over 8 x ib-ndr (nccl backend): 336 MB per NIC at 45.0 GB/s; 8.17 ms in all, effective 329 GB/s
  8 senders on 1 node of 8 NICs, 1 NIC each: the GPU's own NIC(s), as NCCL binds them
  through host memory (no GPUDirect RDMA): the copies over pcie5 (10.7 ms, out and in) run in 512 KiB chunks pipelined with the wire: hidden behind it but for the pipeline fill, 16.6 us added
  setup 22.4 us + blocks 672 us (80 x 8.40 us) + bandwidth 7.46 ms + staging 16.6 us = 8.17 ms; bandwidth-bound
$ collcalc kv --model llama-3-70b --tokens 8k --tp 8 --platform hgx-h100 --backend nixl --no-gdr --format json
{"schema_version":1,"command":"kv","query":{"model":"llama-3-70b","tokens":8192,"dtype":"bf16","tp":8,"pp":1,"dedup":false,"decode_tp":8,"kv_path":"network","link":"ib-ndr","link_bw_GBps":50,"nics_per_node":8,"no_gdr":true,"backend":"nixl"},"results":[{"kv_bytes_per_token":327680,"kv_bytes_total":2684354560,"kv_bytes_per_shard":335544320,"kv_bytes_transferred":2684354560,"replication":1,"kv_heads_per_shard":1,"window_layers":0,"path":"network","senders":8,"nodes":1,"per_host":false,"node_nics":8,"nics_per_sender":1,"near_nics":0,"far_nics":0,"nics_used":8,"bytes_per_nic":335544320,"block_bytes":4194304,"blocks_per_nic":80,"line_per_nic_GBps":50,"line_GBps":400,"rate_per_nic_GBps":42.5,"receivers":8,"bytes_per_receiver":335544320,"receive_us":0,"staged":true,"staging_us":10652.200634920635,"staging_exposed_us":16.644063492063495,"bandwidth_us":7895.1604705882355,"block_overhead_us":400,"setup_us":50,"transfer_us":8361.804534080298,"effective_GBps":321.02574857608147,"backend":"nixl","backend_efficiency":0.85,"backend_source":"nixlbench 42.6 GB/s on 400G RoCE = 0.85 (ai-dynamo/nixl PR 1647); per-block 5 us and setup 50 us [estimate]; one NIC per GPU (openucx/ucx issue 11259)","fits_budget":null}],"findings":[],"notes":[]}
$ collcalc kv --model llama-3-70b --tokens 8k --tp 8 --platform gb200-nvl72 --no-gdr --format json
{"schema_version":1,"command":"kv","query":{"model":"llama-3-70b","tokens":8192,"dtype":"bf16","tp":8,"pp":1,"dedup":false,"decode_tp":8,"kv_path":"nvlink","link":"nvlink5","link_bw_GBps":900,"nics_per_node":72,"no_gdr":true,"backend":"nccl"},"results":[{"kv_bytes_per_token":327680,"kv_bytes_total":2684354560,"kv_bytes_per_shard":335544320,"kv_bytes_transferred":2684354560,"replication":1,"kv_heads_per_shard":1,"window_layers":0,"path":"nvlink","senders":8,"nodes":1,"per_host":false,"node_nics":72,"nics_per_sender":1,"near_nics":0,"far_nics":0,"nics_used":8,"bytes_per_nic":335544320,"block_bytes":4194304,"blocks_per_nic":80,"line_per_nic_GBps":900,"line_GBps":7200,"rate_per_nic_GBps":810,"receivers":8,"bytes_per_receiver":335544320,"receive_us":0,"staged":false,"staging_us":0,"staging_exposed_us":0,"bandwidth_us":414.2522469135802,"block_overhead_us":672,"setup_us":22.4,"transfer_us":1108.6522469135803,"effective_GBps":2421.2773369404863,"backend":"nccl","backend_efficiency":0.9,"backend_source":"efficiency 0.90 [estimate]; per-block and setup from NCCL Simple baseLat 8.4 us + NET hwLat 14 us (NVIDIA/nccl src/graph/tuning.cc); the GPU's own NIC(s), as NCCL binds them","fits_budget":null}],"findings":[{"severity":"info","code":"kv-no-gdr-moot","message":"--no-gdr changes nothing here: the KV goes over NVLink, and GPUDirect RDMA is a NIC path","next_step":"","lines":""}],"notes":[]}
$ collcalc kv --model llama-3-70b --tokens 8k --tp 8 --platform hgx-h100 --link eth400
[stderr] collcalc kv: --link: names the whole path as one link: with a cluster (--platform, ...) give the NICs with --inter (see 'collcalc kv --help')
[exit 2]
$ collcalc kv --model llama-3-70b --tokens 8k --tp 8 --platform hgx-h100 --inter eth400
llama-3-70b, bf16 KV cache: 327680 bytes (328 kB) per token (gqa)
8192 tokens: 2684354560 bytes (2.68 GB) unique; 336 MB per shard on TP 8 x PP 1; 2.68 GB shipped

transfer over 8 x eth400 (nccl backend): 336 MB per NIC at 45.0 GB/s; 8.15 ms in all, effective 329 GB/s
  8 senders on 1 node of 8 NICs, 1 NIC each: the GPU's own NIC(s), as NCCL binds them
  setup 22.4 us + blocks 672 us (80 x 8.40 us) + bandwidth 7.46 ms = 8.15 ms; bandwidth-bound
$ collcalc kv --model llama-3-70b --tokens 8k --tp 8 --platform hgx-h100 --budget 0
[stderr] collcalc kv: --budget: must be above 0 (leave it out for none) (see 'collcalc kv --help')
[exit 2]
$ collcalc kv --model llama-3-70b --tokens 8k --tp 8 --platform hgx-h100 --block-size 0
[stderr] collcalc kv: --block-size: must be above 0 (leave it out for one layer) (see 'collcalc kv --help')
[exit 2]
$ collcalc kv --model llama-3-70b --tokens 8k --tp 3 --platform hgx-h100
[stderr] collcalc kv: --tp: 3 does not divide llama-3-70b's 64 attention heads (see 'collcalc kv --help')
[exit 2]
$ collcalc kv --model llama-3-70b --tokens 8k --tp 36 --platform gb200-nvl72
[stderr] collcalc kv: --tp: 36 does not divide llama-3-70b's 64 attention heads (see 'collcalc kv --help')
[exit 2]
$ collcalc kv --model llama-3-70b --tokens 8k --tp 8 --decode-tp 3 --platform hgx-h100
[stderr] collcalc kv: --decode-tp: 3 does not divide llama-3-70b's 64 attention heads (see 'collcalc kv --help')
[exit 2]
$ collcalc kv --model llama-3-70b --tokens 8k --tp 4 --platform gb300-nvl72 --backend tcp
llama-3-70b, bf16 KV cache: 327680 bytes (328 kB) per token (gqa)
8192 tokens: 2684354560 bytes (2.68 GB) unique; 671 MB per shard on TP 4 x PP 1; 2.68 GB shipped

transfer over 4 x ib-xdr (tcp backend): 671 MB per NIC at 10.2 GB/s; 67.2 ms in all, effective 40.0 GB/s
  4 senders on 1 host of 4 NICs (hosts of 4 GPUs in the 72-GPU NVLink domain), 1 NIC each: through host memory any NIC of the host serves, the host's CPU caps the total
  through host memory (kernel TCP): the copies over nvlink-c2c (2.98 ms, out and in) run in 64 KiB chunks pipelined with the wire: hidden behind it but for the pipeline fill, 291 ns added
  setup 100 us + blocks 1.60 ms (80 x 20.0 us) + bandwidth 65.5 ms + staging 291 ns = 67.2 ms; bandwidth-bound
$ collcalc kv --model llama-3-70b --tokens 8k --tp 4 --platform gb300-nvl72 --backend tcp --kv-path nvlink
[stderr] collcalc kv: --kv-path: nvlink: the tcp backend cannot use NVLink (kernel sockets go over the network); use --kv-path network or another backend (see 'collcalc kv --help')
[exit 2]
$ collcalc kv --model llama-3-70b --tokens 8k --tp 8 --platform hgx-h100 --backend mooncake --topo examples/topo_hgx_h100_10nic.txt
llama-3-70b, bf16 KV cache: 327680 bytes (328 kB) per token (gqa)
8192 tokens: 2684354560 bytes (2.68 GB) unique; 336 MB per shard on TP 8 x PP 1; 2.68 GB shipped

transfer over 10 x ib-ndr (mooncake backend): 268 MB per NIC at 25.2 GB/s; 11.2 ms in all, effective 240 GB/s
  8 senders on 1 node of 10 NICs, 10 NICs each (8 GPUs share each NIC): striped at equal shares over 1 NIC at PCIe distance of the GPU and 9 beyond it (--topo): every share runs at the farthest's rate
  setup 50.0 us + blocks 499 us (64 x 7.80 us) + bandwidth 10.7 ms = 11.2 ms; bandwidth-bound
$ collcalc kv --model llama-3-70b --tokens 8k --tp 8 --platform hgx-h100 --backend mooncake --topo tests/fuzz/corpus/topo/topo_mp_4gpu_2nic.txt
llama-3-70b, bf16 KV cache: 327680 bytes (328 kB) per token (gqa)
8192 tokens: 2684354560 bytes (2.68 GB) unique; 336 MB per shard on TP 8 x PP 1; 2.68 GB shipped

transfer over 4 x ib-ndr (mooncake backend): 671 MB per NIC at 12.6 GB/s; 54.6 ms in all, effective 49.2 GB/s
  8 senders on 2 nodes of 2 NICs, 2 NICs each (4 GPUs share each NIC): striped at equal shares over 1 NIC at PCIe distance of the GPU and 1 beyond it (--topo): every share runs at the farthest's rate
  setup 50.0 us + blocks 1.25 ms (160 x 7.80 us) + bandwidth 53.3 ms = 54.6 ms; bandwidth-bound
$ collcalc kv --model llama-3-70b --tokens 8k --tp 8 --decode-tp 64 --platform hgx-h100 --backend nixl
llama-3-70b, bf16 KV cache: 327680 bytes (328 kB) per token (gqa)
8192 tokens: 2684354560 bytes (2.68 GB) unique; 336 MB per shard on TP 8 x PP 1; 21.5 GB shipped

transfer over 8 x ib-ndr (nixl backend): 2.68 GB per NIC at 42.5 GB/s; 66.4 ms in all, effective 323 GB/s
  8 senders on 1 node of 8 NICs, 1 NIC each: one NIC per GPU (UCX picks one device)
  re-sharding TP 8 -> TP 64: 64 decode GPUs each pull 336 MB, 7.90 ms on the busiest receiver
  setup 50.0 us + blocks 3.20 ms (640 x 5.00 us) + bandwidth 63.2 ms = 66.4 ms; bandwidth-bound
$ collcalc kv --model llama-3-70b --tokens 8k --tp 64 --decode-tp 8 --platform hgx-h100 --backend nixl
llama-3-70b, bf16 KV cache: 327680 bytes (328 kB) per token (gqa)
8192 tokens: 2684354560 bytes (2.68 GB) unique; 336 MB per shard on TP 64 x PP 1; 2.68 GB shipped (replicas included)

transfer over 64 x ib-ndr (nixl backend): 41.9 MB per NIC at 42.5 GB/s; 8.35 ms in all, effective 322 GB/s
  64 senders on 8 nodes of 8 NICs, 1 NIC each: one NIC per GPU (UCX picks one device)
  re-sharding TP 64 -> TP 8: 8 decode GPUs each pull 336 MB, 7.90 ms on the busiest receiver
  setup 50.0 us + blocks 400 us (80 x 5.00 us) + bandwidth 7.90 ms = 8.35 ms; bandwidth-bound

warning tp 64 exceeds llama-3-70b's 8 KV heads: each head is replicated on 8 ranks
        next: keep tp <= kv_heads, or ship with dedup
$ collcalc kv --model llama-3-70b --tokens 8k --tp 8 --decode-tp 1 --platform hgx-h100 --backend nixl
llama-3-70b, bf16 KV cache: 327680 bytes (328 kB) per token (gqa)
8192 tokens: 2684354560 bytes (2.68 GB) unique; 336 MB per shard on TP 8 x PP 1; 2.68 GB shipped

transfer over 8 x ib-ndr (nixl backend): 336 MB per NIC at 42.5 GB/s; 63.6 ms in all, effective 42.2 GB/s
  8 senders on 1 node of 8 NICs, 1 NIC each: one NIC per GPU (UCX picks one device)
  re-sharding TP 8 -> TP 1: 1 decode GPU pulls 2.68 GB, 63.2 ms on the busiest receiver
  setup 50.0 us + blocks 400 us (80 x 5.00 us) + bandwidth 63.2 ms = 63.6 ms; bandwidth-bound
$ collcalc kv --model llama-3-70b --tokens 8k --tp 8 --link eth400 --backend tcp
llama-3-70b, bf16 KV cache: 327680 bytes (328 kB) per token (gqa)
8192 tokens: 2684354560 bytes (2.68 GB) unique; 336 MB per shard on TP 8 x PP 1; 2.68 GB shipped

transfer over 8 x eth400 (tcp backend): 336 MB per NIC at 18.0 GB/s; 20.3 ms in all, effective 132 GB/s
  8 senders on 8 nodes of 1 NIC, 1 NIC each: through host memory any NIC of the node serves, the node's CPU caps the total
  through host memory (kernel TCP): the GPU's copies are not counted (no --platform names the host link)
  setup 100 us + blocks 1.60 ms (80 x 20.0 us) + bandwidth 18.6 ms = 20.3 ms; bandwidth-bound
$ collcalc kv --model llama-3-70b --tokens 8k --tp 8 --platform hgx-h100 --backend mooncake --topo examples/topo_pcie_switch_pairs.txt
[stderr] collcalc kv: examples/topo_pcie_switch_pairs.txt: lists no NICs: kv --topo needs the prefill node's matrix with its NICs (NIC0, NIC1, ... in nvidia-smi topo -m)
[exit 1]
