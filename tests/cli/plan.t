$ collcalc plan --model llama-3-70b --tp 8 --platform hgx-h100
[stderr] collcalc plan: --tokens: missing: how many tokens, e.g. --tokens 8192 (see 'collcalc plan --help')
[exit 2]
$ collcalc plan --model deepseek-v3 --tokens 64 --tp 65536 --ep 65536 --pp 65536 --dp 65536 --cp 65536 --platform hgx-h100
[stderr] collcalc plan: --tp: tp x pp x ep x dp x cp = 1208925819614629174706176 GPUs: at most 1000000 (got tp 65536, pp 65536, ep 65536, dp 65536, cp 65536) (see 'collcalc plan --help')
[exit 2]
$ collcalc plan --model llama-3.1-405b --tp 8 --tokens 64 --platform hgx-h100 --strict
llama-3.1-405b decode, 64 tokens per step, weights bf16, activations/KV bf16: TP 8 x CP 1 x EP 1 x PP 1 x DP 1 = 8 GPUs on 1 node of 8 (rank order tp,cp,ep,pp,dp)
collectives costed with NCCL's tuner on the platform, one process per GPU (--launch process-per-gpu; all-to-all and send/recv: its point-to-point model)

collective    group  nodes  link     algorithm  per layer  per step  message     each  per step  exposed  dominant
tp-allreduce      8      1  nvlink4  nvls               2       252  2.10 MB  39.8 us   10.0 ms  10.0 ms  latency

communication per step 10.0 ms, exposed 10.0 ms (overlap 0%, SM slowdown 1); fixed (latency) part 6.30 ms: latency-bound
memory per GPU 119 GB: weights 101 GB (bf16, native), KV cache 16.9 GB (bf16 at 4096 context), activations 14.2 MB, buffers 268 MB
DOES NOT FIT: 72.0 GB usable of 80 GB H100 SXM (90 %)
nothing fits at this context: shard the weights further
step 45.2 ms = compute 35.2 ms (FLOP-bound 0 us, memory-bound 35.2 ms; bf16 at 989 TFLOP/s, 3350 GB/s, x 1) + pipeline bubble 0 us + exposed communication 10.0 ms
time per output token 45.2 ms, 176.9 tokens/s per GPU, communication 22 % of the step
verdict: violation

error   the weights alone need 101.5 GB per GPU, more than the 72.0 GB usable of its 80 GB
        next: shard the weights further (more TP, PP or EP), or store them in a narrower format (--weight-dtype)
info    the step's communication is latency-bound: 6300.0 us of fixed cost vs 3740.2 us moving bytes
        next: larger batches cost little more communication per step
[stderr] collcalc plan: --strict: 1 error finding (weights-exceed-memory)
[exit 3]
$ collcalc plan --model llama-3-70b --tokens 8k --context 32k --tp 8 --platform hgx-h100 --format json
{"schema_version":1,"command":"plan","query":{"model":"llama-3-70b","phase":"decode","tokens":8192,"dtype":"bf16","tp":8,"pp":1,"ep":1,"dp":1,"cp":1,"sp":false,"rank_order":"tp,cp,ep,pp,dp","gpus":8,"gpus_per_node":8,"nodes":1,"intra_link":"nvlink4","inter_link":"ib-ndr","overlap":0,"sm_slowdown":1,"comm_us":97952.40960000001,"exposed_us":97952.40960000001,"floor_us":97952.40960000001,"latency_us":4000,"bandwidth_us":93952.40960000001,"dominant":"bandwidth","cost_model":"nccl","cross_node_fixed_us":0,"weight_dtype":"bf16","kv_dtype":"bf16","context":32768,"chunks":1,"prompts":0,"gpu":"H100 SXM","memory_bytes_per_gpu":11014214361216,"weight_bytes_per_gpu":17650000000,"kv_bytes_per_gpu":10995116277760,"activation_bytes_per_gpu":1179648000,"buffer_bytes_per_gpu":268435456,"memory_capacity_bytes":72000000000,"memory_checked":true,"fits":false,"max_tokens":40,"max_context":157,"compute_modeled":true,"compute_us":3425988.7366052726,"compute_flops_us":143864.47458736203,"compute_memory_us":3282124.2620179104,"bubble_us":0,"step_us":3523941.1462052725,"batches_in_flight":1,"stage_us":3523941.1462052725,"token_latency_us":3523941.1462052725,"tokens_per_s_per_gpu":290.5837406231049,"comm_share":0.027796267172475134,"verdict":"violation"},"plan":[{"model":"llama-3-70b","phase":"decode","tokens":8192,"tp":8,"cp":1,"ep":1,"pp":1,"dp":1,"gpus":8,"nodes":1,"context":32768,"sequences":8192,"chunks":1,"prompts":0,"weight_bytes_per_gpu":17650000000,"kv_bytes_per_gpu":10995116277760,"activation_bytes_per_gpu":1179648000,"buffer_bytes_per_gpu":268435456,"optimizer_bytes_per_gpu":0,"memory_bytes_per_gpu":11014214361216,"memory_capacity_bytes":72000000000,"memory_checked":true,"fits":false,"max_tokens":40,"max_context":157,"compute_modeled":true,"flops_type":"bf16","compute_us":3425988.7366052726,"compute_flops_us":143864.47458736203,"compute_memory_us":3282124.2620179104,"bubble_us":0,"comm_us":97952.40960000001,"exposed_us":97952.40960000001,"step_us":3523941.1462052725,"batches_in_flight":1,"stage_us":3523941.1462052725,"token_latency_us":3523941.1462052725,"ttft_us":null,"tokens_per_s_per_gpu":290.5837406231049,"comm_share":0.027796267172475134,"verdict":"violation","errors":1,"warnings":0,"collectives":[{"kind":"tp-allreduce","group_size":8,"nodes":1,"crosses_node":false,"link":"nvlink4","algorithm":"nvls","count_per_layer":2,"count_per_step":160,"message_bytes":134217728,"latency_us_each":25,"bandwidth_us_each":587.2025600000001,"time_us_each":612.2025600000001,"total_us":97952.40960000001,"hidden_fraction":0,"exposed_us":97952.40960000001,"dominant":"bandwidth"}]}],"collectives":[{"kind":"tp-allreduce","group_size":8,"nodes":1,"crosses_node":false,"link":"nvlink4","algorithm":"nvls","count_per_layer":2,"count_per_step":160,"message_bytes":134217728,"latency_us_each":25,"bandwidth_us_each":587.2025600000001,"time_us_each":612.2025600000001,"total_us":97952.40960000001,"hidden_fraction":0,"exposed_us":97952.40960000001,"dominant":"bandwidth"}],"findings":[{"severity":"error","code":"memory-exceeded","message":"needs 11014.2 GB per GPU (weights 17.6, KV cache 10995.1, activations 1.2, buffers 0.3), more than the 72.0 GB usable","next_step":"serve fewer tokens per step, shorten the context, or shard further","lines":""}],"notes":[]}
$ collcalc plan --model llama-3-70b --tokens 256 --search --platform hgx-h100 --nodes 2 --top 4
llama-3-70b decode, 256 tokens per step on 16 GPUs (8 per node): 15 factorizations costed, best 4: plans that fit in memory first, then without an error-level violation, then by peak tokens/s per GPU (at the most tokens per step that fit)

rank  TP  EP  PP  DP  fits  memory/GPU     step  tok/s/GPU  budget  peak tokens  peak tok/s/GPU  comm/step  exposed  errors  warnings  violations
   1   8   1   2   1  yes      52.3 GB  26.7 ms       1195  -               373            1295    4.35 ms  4.35 ms       0         0  
   2   8   1   1   2  yes      39.4 GB  18.0 ms      890.3  -               644            1277    6.37 ms  6.37 ms       0         0  
   3   4   1   2   2  yes      61.2 GB  29.9 ms       1068  -               320            1184    3.30 ms  3.30 ms       0         0  
   4   4   1   1   4  yes      57.1 GB  20.2 ms      792.1  -               432            1045    3.42 ms  3.42 ms       0         0  
$ collcalc plan --model llama-3-70b --tokens 256 --search --platform hgx-h100 --nodes 2 --top 3 --goal latency --latency-budget 20ms
llama-3-70b decode, 256 tokens per step on 16 GPUs (8 per node): 15 factorizations costed, best 3: plans that fit in memory first, then without an error-level violation, within the latency budget, then by step time (time per output token)

rank  TP  EP  PP  DP  fits  memory/GPU     step  tok/s/GPU  budget  peak tokens  peak tok/s/GPU  comm/step  exposed  errors  warnings  violations
   1   8   1   1   2  yes      39.4 GB  18.0 ms      890.3  within          314             984    6.37 ms  6.37 ms       0         0  
   2   4   1   1   4  yes      57.1 GB  20.2 ms      792.1  OVER            256           792.1    3.42 ms  3.42 ms       0         0  
   3   8   1   2   1  yes      52.3 GB  26.7 ms       1195  OVER            256            1195    4.35 ms  4.35 ms       0         0  
$ collcalc plan --model llama-3-70b --tokens 256 --tp 8 --platform hgx-h100 --goal latency
[stderr] collcalc plan: --goal: ranks the plans of --search (see 'collcalc plan --help')
[exit 2]
$ collcalc plan --model llama-3-70b --tokens 8q --tp 8 --platform hgx-h100
[stderr] collcalc plan: --tokens: '8q' is not a token count (a whole number, optionally with k or M: 8k = 8192) (see 'collcalc plan --help')
[exit 2]
$ collcalc plan --model deepseek-v3 --tokens 4096 --ep 8 --platform hgx-h800 --weight-dtype bf16
deepseek-v3 decode, 4096 tokens per step, weights bf16, activations/KV bf16: TP 1 x CP 1 x EP 8 x PP 1 x DP 1 = 8 GPUs on 1 node of 8 (rank order tp,cp,ep,pp,dp)
collectives costed with NCCL's tuner on the platform, one process per GPU (--launch process-per-gpu; all-to-all and send/recv: its point-to-point model)

collective   group  nodes  link          algorithm           per layer  per step  message    each  per step  exposed  dominant
ep-dispatch      8      1  nvlink4-h800  deepep-low-latency          1        58  30.3 MB  250 us   14.5 ms  14.5 ms  bandwidth
ep-combine       8      1  nvlink4-h800  deepep-low-latency          1        58  58.7 MB  410 us   23.8 ms  23.8 ms  bandwidth

communication per step 38.2 ms, exposed 38.2 ms (overlap 0%, SM slowdown 1); fixed (latency) part 9.26 ms: bandwidth-bound
memory per GPU 347 GB: weights 198 GB (bf16), KV cache 147 GB (bf16 at 4096 context), activations 386 MB, buffers 1.88 GB
DOES NOT FIT: 72.0 GB usable of 80 GB H800 SXM (90 %)
nothing fits at this context: shard the weights further
step 148 ms = compute 110 ms (FLOP-bound 16.8 ms, memory-bound 92.8 ms; bf16 at 989 TFLOP/s, 3350 GB/s, x 1) + pipeline bubble 0 us + exposed communication 38.2 ms
time per output token 148 ms, 3464 tokens/s per GPU, communication 26 % of the step
verdict: violation

error   the weights alone need 197.7 GB per GPU, more than the 72.0 GB usable of its 80 GB
        next: shard the weights further (more TP, PP or EP), or store them in a narrower format (--weight-dtype)
$ collcalc kv --model llama-3-70b --tokens 8k --tp 8 --platform gb200-nvl72 --backend nixl
llama-3-70b, bf16 KV cache: 327680 bytes (328 kB) per token (gqa)
8192 tokens: 2684354560 bytes (2.68 GB) unique; 336 MB per shard on TP 8 x PP 1; 2.68 GB shipped

transfer over NVLink (nvlink5): prefill and decode share the NVLink domain, each of the 8 prefill GPUs on its own port (nixl backend): 336 MB per GPU at 765 GB/s; 889 us in all, effective 3,021 GB/s
  setup 50.0 us + blocks 400 us (80 x 5.00 us) + bandwidth 439 us = 889 us; per-block cost-bound
$ collcalc kv --model llama-3-70b --tokens 8k --platform hgx-h100 --backend tcp
llama-3-70b, bf16 KV cache: 327680 bytes (328 kB) per token (gqa)
8192 tokens: 2684354560 bytes (2.68 GB) unique; 2.68 GB per shard on TP 1 x PP 1; 2.68 GB shipped

transfer over 8 x ib-ndr (tcp backend): 336 MB per NIC at 5.12 GB/s; 65.8 ms in all, effective 40.8 GB/s
  1 sender on 1 node of 8 NICs, 8 NICs each: through host memory any NIC of the node serves, the node's CPU caps the total
  through host memory (kernel TCP): the copies over pcie5 (85.2 ms, out and in) run in 64 KiB chunks pipelined with the wire: hidden behind it but for the pipeline fill, 2.08 us added
  setup 100 us + blocks 200 us (10 x 20.0 us) + bandwidth 65.5 ms + staging 2.08 us = 65.8 ms; bandwidth-bound
$ collcalc kv --model llama-3-70b --tokens 8k --platform hgx-h100 --backend mooncake --no-gdr
llama-3-70b, bf16 KV cache: 327680 bytes (328 kB) per token (gqa)
8192 tokens: 2684354560 bytes (2.68 GB) unique; 2.68 GB per shard on TP 1 x PP 1; 2.68 GB shipped

transfer over 1 x ib-ndr (mooncake backend): 2.68 GB per NIC at 37.8 GB/s; 157 ms in all, effective 17.1 GB/s
  1 sender on 1 node of 8 NICs, 1 NIC each: striped over the GPU's nearest NICs (its rail; --topo tells more)
  through host memory (no GPUDirect RDMA): the copies over pcie5 come before and after the wire (mooncake backend: copy, then send): 85.2 ms added
  setup 50.0 us + blocks 624 us (80 x 7.80 us) + bandwidth 71.1 ms + staging 85.2 ms = 157 ms; bandwidth-bound
$ collcalc kv --model llama-3-70b --tokens 8k --tp 8 --platform hgx-h100 --kv-path nvlink
[stderr] collcalc kv: --kv-path: nvlink: prefill and decode (16 GPUs) do not fit one NVLink domain of 8 (see 'collcalc kv --help')
[exit 2]
$ collcalc kv --model deepseek-v3 --tokens 1M --tp 4 --decode-tp 8 --platform hgx-h200 --backend mooncake
deepseek-v3, bf16 KV cache: 70272 bytes (70.3 kB) per token (mla)
1048576 tokens: 73685532672 bytes (73.7 GB) unique; 73.7 GB per shard on TP 4 x PP 1; 589 GB shipped (replicas included)

transfer over 4 x ib-ndr (mooncake backend): 147 GB per NIC at 37.8 GB/s; 3.90 s in all, effective 151 GB/s
  4 senders on 1 node of 8 NICs, 1 NIC each: striped over the GPU's nearest NICs (its rail; --topo tells more)
  re-sharding TP 4 -> TP 8: 8 decode GPUs each pull 73.7 GB, 1.95 s on the busiest receiver
  setup 50.0 us + blocks 952 us (122 x 7.80 us) + bandwidth 3.90 s = 3.90 s; bandwidth-bound

warning the MLA latent is shared by all heads: each of the 4 TP ranks holds all of it (4 copies)
        next: use DP attention (tp 1 per attention replica) to keep one copy per GPU
$ collcalc plan --model llama-3.1-405b --tokens 64 --search --platform hgx-h100 --nodes 1 --strict --top 2
llama-3.1-405b decode, 64 tokens per step on 8 GPUs (8 per node): 10 factorizations costed, best 2: plans that fit in memory first, then without an error-level violation, then by peak tokens/s per GPU (at the most tokens per step that fit)

rank  TP  EP  PP  DP  fits  memory/GPU    step  tok/s/GPU  budget  peak tokens  peak tok/s/GPU  comm/step  exposed  errors  warnings  violations
   1   1   1   8   1  no        239 GB  295 ms      217.1  -                64           217.1     123 us   123 us       1         1  weights-exceed-memory pp-uneven
   2   2   1   4   1  no        171 GB  152 ms        211  -                64             211    1.73 ms  1.73 ms       1         1  weights-exceed-memory pp-uneven
[stderr] collcalc plan: --strict: no plan fits in memory: the best, TP 1 x EP 1 x PP 8 x DP 1, needs 239 GB per GPU
[exit 3]
$ collcalc plan --model llama-3-70b --tokens 256 --tp 8 --platform hgx-h100 --top 3
[stderr] collcalc plan: --top: ranks the plans of --search (see 'collcalc plan --help')
[exit 2]
$ collcalc plan --model llama-3-70b --tokens 256 --search --platform hgx-h100 --nodes 2 --tp 4
llama-3-70b decode, 256 tokens per step on 16 GPUs (8 per node): 3 factorizations with tp 4 costed, best 3: plans that fit in memory first, then without an error-level violation, then by peak tokens/s per GPU (at the most tokens per step that fit)

rank  TP  EP  PP  DP  fits  memory/GPU     step  tok/s/GPU  budget  peak tokens  peak tok/s/GPU  comm/step  exposed  errors  warnings  violations
   1   4   1   2   2  yes      61.2 GB  29.9 ms       1068  -               320            1184    3.30 ms  3.30 ms       0         0  
   2   4   1   1   4  yes      57.1 GB  20.2 ms      792.1  -               432            1045    3.42 ms  3.42 ms       0         0  
   3   4   1   4   1  no       95.3 GB  45.7 ms       1400  -               256            1400    2.40 ms  2.40 ms       1         0  memory-exceeded
$ collcalc plan --model llama-3-70b --tokens 256 --search --platform hgx-h100 --nodes 2 --tp 3
[stderr] collcalc plan: tp 3 does not divide the 16 GPUs (see 'collcalc plan --help')
[exit 2]
$ collcalc plan --model llama-3.1-405b --tokens 64 --tp 8 --pp 2 --nodes 2 --platform hgx-h100
llama-3.1-405b decode, 64 tokens per step, weights bf16, activations/KV bf16: TP 8 x CP 1 x EP 1 x PP 2 x DP 1 = 16 GPUs on 2 nodes of 8 (rank order tp,cp,ep,pp,dp)
collectives costed with NCCL's tuner on the platform, one process per GPU (--launch process-per-gpu; all-to-all and send/recv: its point-to-point model)

collective    group  nodes  link            algorithm  per layer  per step  message     each  per step  exposed  dominant
tp-allreduce      8      1  nvlink4         nvls               2       126  2.10 MB  39.8 us   5.02 ms  5.02 ms  latency
pp-sendrecv       2      2  nvlink4+ib-ndr  direct             0         1   262 kB  30.9 us   30.9 us  30.9 us  latency   <- crosses the node boundary

communication per step 5.05 ms, exposed 5.05 ms (overlap 0%, SM slowdown 1); fixed (latency) part 3.18 ms: latency-bound
a group crosses the node boundary: each of its collectives costs at least 25.4 us
memory per GPU 68.2 GB: weights 50.7 GB (bf16, native), KV cache 16.9 GB (bf16 at 4096 context, the pp batches in flight), activations 14.2 MB, buffers 537 MB
fits: 72.0 GB usable of 80 GB H100 SXM (90 %)
largest that fits: 78 tokens per step at 4096 context; context 5016 at 64 tokens
step 45.4 ms = compute 17.7 ms (FLOP-bound 0 us, memory-bound 17.7 ms; bf16 at 989 TFLOP/s, 3350 GB/s, x 1) + pipeline bubble 22.7 ms + exposed communication 5.05 ms
pipeline: 2 batches in flight, one every 22.7 ms (a stage's time: tokens/s); each crosses all 2 stages (the step above: latency)
time per output token 45.4 ms, 176.1 tokens/s per GPU, communication 11 % of the step
verdict: ok

info    the step's communication is latency-bound: 3175.4 us of fixed cost vs 1875.6 us moving bytes
        next: larger batches cost little more communication per step
$ collcalc plan --model llama-3-70b --phase prefill --tokens 64 --context 8k --tp 8 --platform hgx-h200
llama-3-70b prefill, 64 tokens per step, weights bf16, activations/KV bf16: TP 8 x CP 1 x EP 1 x PP 1 x DP 1 = 8 GPUs on 1 node of 8 (rank order tp,cp,ep,pp,dp)
collectives costed with NCCL's tuner on the platform, one process per GPU (--launch process-per-gpu; all-to-all and send/recv: its point-to-point model)

collective    group  nodes  link     algorithm  per layer  per step  message     each  per step  exposed  dominant
tp-allreduce      8      1  nvlink4  ring               2       160  1.05 MB  28.0 us   4.48 ms  4.48 ms  latency

communication per step 4.48 ms, exposed 4.48 ms (overlap 0%, SM slowdown 1); fixed (latency) part 2.40 ms: latency-bound
memory per GPU 18.3 GB: weights 17.6 GB (bf16, native), KV cache 336 MB (bf16, 1 prompt of 8192 tokens per replica, 64 of it per step: 128 chunks), activations 5.18 MB, buffers 268 MB
fits: 127 GB usable of 141 GB H200 SXM (90 %)
largest that fits: 901120 tokens per step at 8192 context; context 2660556 at 64 tokens
step 8.19 ms = compute 3.71 ms (FLOP-bound 86.8 us, memory-bound 3.62 ms; bf16 at 989 TFLOP/s, 4800 GB/s, x 1) + pipeline bubble 0 us + exposed communication 4.48 ms
time to first token 1.05 s (128 chunks x the step), 976.9 tokens/s per GPU, communication 55 % of the step
verdict: ok

info    the step's communication is latency-bound: 2400.0 us of fixed cost vs 2082.3 us moving bytes
        next: larger batches cost little more communication per step
$ collcalc plan --model llama-3-70b --phase prefill --tokens 64k --tp 2 --dp 4 --platform hgx-h200
llama-3-70b prefill, 65536 tokens per step, weights bf16, activations/KV bf16: TP 2 x CP 1 x EP 1 x PP 1 x DP 4 = 8 GPUs on 1 node of 8 (rank order tp,cp,ep,pp,dp)
collectives costed with NCCL's tuner on the platform, one process per GPU (--launch process-per-gpu; all-to-all and send/recv: its point-to-point model)

collective    group  nodes  link     algorithm  per layer  per step  message    each  per step  exposed  dominant
tp-allreduce      2      1  nvlink4  ring               2       160   268 MB  825 us    132 ms   132 ms  bandwidth

communication per step 132 ms, exposed 132 ms (overlap 0%, SM slowdown 1); fixed (latency) part 2.43 ms: bandwidth-bound
memory per GPU 83.6 GB: weights 70.6 GB (bf16, native), KV cache 10.7 GB (bf16, 1 prompt of 65536 tokens per replica, 4 in flight, 16384 of it per step: 4 chunks), activations 2.01 GB, buffers 268 MB
fits: 127 GB usable of 141 GB H200 SXM (90 %)
largest that fits: 775340 tokens per step at 65536 context; context 329699 at 65536 tokens
step 1.98 s = compute 1.84 s (FLOP-bound 1.84 s, memory-bound 219 us; bf16 at 989 TFLOP/s, 4800 GB/s, x 1) + pipeline bubble 0 us + exposed communication 132 ms
time to first token 7.91 s (4 chunks x the step), 4144 tokens/s per GPU, communication 7 % of the step
verdict: ok
$ collcalc plan --model llama-3.1-405b --tokens 64 --tp 8 --pp 2 --nodes 2 --platform hgx-h100 --format csv
model,phase,tokens,tp,cp,ep,pp,dp,gpus,nodes,context,sequences,chunks,prompts,weight_bytes_per_gpu,kv_bytes_per_gpu,activation_bytes_per_gpu,buffer_bytes_per_gpu,optimizer_bytes_per_gpu,memory_bytes_per_gpu,memory_capacity_bytes,memory_checked,fits,max_tokens,max_context,compute_modeled,flops_type,compute_us,compute_flops_us,compute_memory_us,bubble_us,comm_us,exposed_us,step_us,batches_in_flight,stage_us,token_latency_us,ttft_us,tokens_per_s_per_gpu,comm_share,verdict,errors,warnings,collectives
llama-3.1-405b,decode,64,8,1,1,2,1,16,2,4096,64,1,0,50737500000,16911433728,14196736,536870912,0,68200001376,72000000000,true,true,78,5016,true,bf16,17667.723080597014,0,17667.723080597014,22687.81211589113,5050.950368627451,5050.950368627451,45406.485565115596,2,22718.673449224465,45406.485565115596,,176.06661801534656,0.11123852255387809,ok,0,0,"[{""kind"":""tp-allreduce"",""group_size"":8,""nodes"":1,""crosses_node"":false,""link"":""nvlink4"",""algorithm"":""nvls"",""count_per_layer"":2,""count_per_step"":126,""message_bytes"":2097152,""latency_us_each"":25,""bandwidth_us_each"":14.841976470588236,""time_us_each"":39.841976470588236,""total_us"":5020.089035294118,""hidden_fraction"":0,""exposed_us"":5020.089035294118,""dominant"":""latency""},{""kind"":""pp-sendrecv"",""group_size"":2,""nodes"":2,""crosses_node"":true,""link"":""nvlink4+ib-ndr"",""algorithm"":""direct"",""count_per_layer"":0,""count_per_step"":1,""message_bytes"":262144,""latency_us_each"":25.4,""bandwidth_us_each"":5.461333333333333,""time_us_each"":30.86133333333333,""total_us"":30.86133333333333,""hidden_fraction"":0,""exposed_us"":30.86133333333333,""dominant"":""latency""}]"
$ collcalc plan --model llama-3-70b --tokens 64 --tp 8 --platform dgx-a100 --dtype fp8
llama-3-70b decode, 64 tokens per step, weights bf16, activations/KV fp8: TP 8 x CP 1 x EP 1 x PP 1 x DP 1 = 8 GPUs on 1 node of 8 (rank order tp,cp,ep,pp,dp)
collectives costed with NCCL's tuner on the platform, one process per GPU (--launch process-per-gpu; all-to-all and send/recv: its point-to-point model)

collective    group  nodes  link     algorithm  per layer  per step  message     each  per step  exposed  dominant
tp-allreduce      8      1  nvlink3  ring               2       160   524 kB  25.5 us   4.07 ms  4.07 ms  latency

communication per step 4.07 ms, exposed 4.07 ms (overlap 0%, SM slowdown 1); fixed (latency) part 2.40 ms: latency-bound
memory per GPU 23.3 GB: weights 17.6 GB (bf16, native), KV cache 5.37 GB (fp8 at 4096 context), activations 6.66 MB, buffers 268 MB
fits: 36.0 GB usable of 40 GB A100 SXM4 (90 %)
largest that fits: 215 tokens per step at 4096 context; context 13790 at 64 tokens
step 18.7 ms = compute 14.6 ms (FLOP-bound 0 us, memory-bound 14.6 ms; bf16 at 312 TFLOP/s, 1555 GB/s, x 1) + pipeline bubble 0 us + exposed communication 4.07 ms
time per output token 18.7 ms, 427.8 tokens/s per GPU, communication 22 % of the step
verdict: ok

info    A100 SXM4 has no fp8 tensor-core figure: the GEMMs are costed at its bf16 FLOP/s
        next: expect the narrower type to save memory and bandwidth, not FLOPs
info    the step's communication is latency-bound: 2400.0 us of fixed cost vs 1673.9 us moving bytes
        next: larger batches cost little more communication per step
$ collcalc plan --model llama-3.1-8b --phase prefill --tokens 64k --platform hgx-h100
llama-3.1-8b prefill, 65536 tokens per step, weights bf16, activations/KV bf16: TP 1 x CP 1 x EP 1 x PP 1 x DP 1 = 1 GPU on 1 node of 8 (rank order tp,cp,ep,pp,dp)
collectives costed with NCCL's tuner on the platform, one process per GPU (--launch process-per-gpu; all-to-all and send/recv: its point-to-point model)

collective  group  nodes  link  algorithm  per layer  per step  message  each  per step  exposed  dominant

communication per step 0 us, exposed 0 us (overlap 0%, SM slowdown 1); fixed (latency) part 0 us: bandwidth-bound
memory per GPU 30.6 GB: weights 16.1 GB (bf16, native), KV cache 8.59 GB (bf16, 1 prompt of 65536 tokens per replica), activations 5.91 GB, buffers 0 B
fits: 72.0 GB usable of 80 GB H100 SXM (90 %)
largest that fits: 239459 tokens per step at 65536 context; context 381728 at 65536 tokens
step 2.06 s = compute 2.06 s (FLOP-bound 2.06 s, memory-bound 314 us; bf16 at 989 TFLOP/s, 3350 GB/s, x 1) + pipeline bubble 0 us + exposed communication 0 us
time to first token 2.06 s (1 chunk x the step), 31,769 tokens/s per GPU, communication 0 % of the step
verdict: ok
$ collcalc plan --model llama-3-70b --tokens 256 --search --gpus 16 --gpus-per-node 8 --intra nvlink4 --inter ib-ndr --top 3
llama-3-70b decode, 256 tokens per step on 16 GPUs (8 per node): 15 factorizations costed, best 3: plans that fit in memory first, then without an error-level violation, then by exposed communication per step (no GPU figures: compute not modeled)

rank  TP  EP  PP  DP  fits       memory/GPU  step  tok/s/GPU  budget  peak tokens  peak tok/s/GPU  comm/step  exposed  errors  warnings  violations
   1   1   1   1  16  unchecked      163 GB     -          -  -                 -               -       0 us     0 us       0         0  
   2   1   1   2   8  unchecked      114 GB     -          -  -                 -               -    3.17 us  3.17 us       0         0  
   3   1   1   4   4  unchecked      122 GB     -          -  -                 -               -    13.0 us  13.0 us       0         0  
$ collcalc plan --model llama-3-70b --tokens 64 --tp 16 --platform hgx-h100 --overlap 1
llama-3-70b decode, 64 tokens per step, weights bf16, activations/KV bf16: TP 16 x CP 1 x EP 1 x PP 1 x DP 1 = 16 GPUs on 2 nodes of 8 (rank order tp,cp,ep,pp,dp)
collectives costed with NCCL's tuner on the platform, one process per GPU (--launch process-per-gpu; all-to-all and send/recv: its point-to-point model)

collective    group  nodes  link            algorithm  per layer  per step  message     each  per step  exposed  dominant
tp-allreduce     16      2  nvlink4+ib-ndr  tree               2       160  1.05 MB  58.6 us   9.37 ms  3.57 ms  latency   <- crosses the node boundary

communication per step 9.37 ms, exposed 3.57 ms (overlap 100%, SM slowdown 1); fixed (latency) part 7.76 ms: latency-bound
a group crosses the node boundary: each of its collectives costs at least 48.5 us
memory per GPU 19.8 GB: weights 8.82 GB (bf16, native), KV cache 10.7 GB (bf16 at 4096 context), activations 6.71 MB, buffers 268 MB
fits: 72.0 GB usable of 80 GB H100 SXM (90 %)
largest that fits: 374 tokens per step at 4096 context; context 23994 at 64 tokens
step 9.37 ms = compute 5.80 ms (FLOP-bound 0 us, memory-bound 5.80 ms; bf16 at 989 TFLOP/s, 3350 GB/s, x 1) + pipeline bubble 0 us + exposed communication 3.57 ms
time per output token 9.37 ms, 427 tokens/s per GPU, communication 38 % of the step
verdict: violation

error   TP crosses the node boundary: TP=16 spans 2 nodes of 8 GPUs, so each of its 160 collectives per step pays 48.5 us of fixed cost over the network
        next: keep TP inside one NVLink domain and scale out with PP, EP or DP
warning tp 16 exceeds llama-3-70b's 8 KV heads: each KV head is replicated on 2 ranks (KV memory x2)
        next: keep tp <= kv_heads, or accept the extra KV memory
info    the step's communication is latency-bound: 7760.0 us of fixed cost vs 1608.7 us moving bytes
        next: larger batches cost little more communication per step
$ collcalc plan --model llama-3-70b --tokens 256 --search --platform hgx-h100 --nodes 2 --tp 4 --pp 8
[stderr] collcalc plan: tp 4 x pp 8 does not divide the 16 GPUs (see 'collcalc plan --help')
[exit 2]
$ collcalc plan --model llama-3-70b --tokens 8 --tp 8 --dp 4 --gpus 16 --platform hgx-h100
[stderr] collcalc plan: --gpus: 16 GPUs, but the degrees make 32 (--tp 8 x --cp 1 x --ep 1 x --pp 1 x --dp 4) (see 'collcalc plan --help')
[exit 2]
$ collcalc plan --model llama-3-70b --tokens 8 --tp 8 --nodes 2 --platform hgx-h100
[stderr] collcalc plan: --nodes: 16 GPUs, but the degrees make 8 (--tp 8 x --cp 1 x --ep 1 x --pp 1 x --dp 1) (see 'collcalc plan --help')
[exit 2]
$ collcalc plan --model llama-3-70b --tokens 8 --search --gpus 8 --latency-budget 0 --strict --platform hgx-h100
[stderr] collcalc plan: --latency-budget: must be above 0 (leave it out for none) (see 'collcalc plan --help')
[exit 2]
$ collcalc plan --model llama-3-70b --tokens 8 --tp 8 --sm-slowdown 1000 --platform hgx-h100
[stderr] collcalc plan: --sm-slowdown: '1000' is out of range: must be between 1 and 100 (see 'collcalc plan --help')
[exit 2]
$ collcalc plan --model deepseek-v3 --ep 16 --tokens 256 --platform mi355x-8x --nodes 2
deepseek-v3 decode, 256 tokens per step, weights fp8, activations/KV bf16: TP 1 x CP 1 x EP 16 x PP 1 x DP 1 = 16 GPUs on 2 nodes of 8 (rank order tp,cp,ep,pp,dp)
collectives costed with NCCL's (RCCL's) tuner on the platform, one process per GPU (--launch process-per-gpu; all-to-all and send/recv: its point-to-point model)

collective   group  nodes  link                algorithm        per layer  per step  message     each  per step  exposed  dominant
ep-dispatch     16      2  xgmi-mi355x+eth400  a2a-low-latency          1        58   948 kB  27.5 us   1.59 ms  1.59 ms  latency    <- crosses the node boundary
ep-combine      16      2  xgmi-mi355x+eth400  a2a-low-latency          1        58  1.84 MB  38.6 us   2.24 ms  2.24 ms  bandwidth  <- crosses the node boundary

communication per step 3.83 ms, exposed 3.83 ms (overlap 0%, SM slowdown 1); fixed (latency) part 2.08 ms: latency-bound
a group crosses the node boundary: each of its collectives costs at least 18.7 us
memory per GPU 64.5 GB: weights 58.0 GB (fp8, native), KV cache 4.61 GB (bf16 at 4096 context), activations 12.1 MB, buffers 1.88 GB
fits: 259 GB usable of 288 GB MI355X (90 %)
largest that fits: 11040 tokens per step at 4096 context; context 177298 at 256 tokens
step 11.5 ms = compute 7.71 ms (FLOP-bound 0 us, memory-bound 7.71 ms; fp8 at 5033 TFLOP/s, 8000 GB/s, x 1) + pipeline bubble 0 us + exposed communication 3.83 ms
time per output token 11.5 ms, 1387 tokens/s per GPU, communication 33 % of the step
verdict: ok, with warnings

warning EP=16 spans 2 nodes of 8 GPUs: dispatch and combine cross the network
        next: keep EP inside one node (8 GPUs on xGMI) if it fits
info    the step's communication is latency-bound: 2077.6 us of fixed cost vs 1754.6 us moving bytes
        next: larger batches cost little more communication per step
$ collcalc plan --model llama-3-70b --tokens 64 --tp 16 --nodes 2 --platform aws-p5
llama-3-70b decode, 64 tokens per step, weights bf16, activations/KV bf16: TP 16 x CP 1 x EP 1 x PP 1 x DP 1 = 16 GPUs on 2 nodes of 8 (rank order tp,cp,ep,pp,dp)
collectives costed with NCCL's tuner on the platform, one process per GPU (--launch process-per-gpu; all-to-all and send/recv: its point-to-point model)

collective    group  nodes  link            algorithm  per layer  per step  message    each  per step  exposed  dominant
tp-allreduce     16      2  nvlink4+eth100  nvlstree           2       160  1.05 MB  211 us   33.7 ms  33.7 ms  latency   <- crosses the node boundary

communication per step 33.7 ms, exposed 33.7 ms (overlap 0%, SM slowdown 1); fixed (latency) part 32.4 ms: latency-bound
a group crosses the node boundary: each of its collectives costs at least 203 us
memory per GPU 19.8 GB: weights 8.82 GB (bf16, native), KV cache 10.7 GB (bf16 at 4096 context), activations 6.71 MB, buffers 268 MB
fits: 72.0 GB usable of 80 GB H100 SXM (90 %)
largest that fits: 374 tokens per step at 4096 context; context 23994 at 64 tokens
step 39.5 ms = compute 5.80 ms (FLOP-bound 0 us, memory-bound 5.80 ms; bf16 at 989 TFLOP/s, 3350 GB/s, x 1) + pipeline bubble 0 us + exposed communication 33.7 ms
time per output token 39.5 ms, 101.2 tokens/s per GPU, communication 85 % of the step
verdict: violation

error   TP crosses the node boundary: TP=16 spans 2 nodes of 8 GPUs, so each of its 160 collectives per step pays 202.8 us of fixed cost over the network
        next: keep TP inside one NVLink domain and scale out with PP, EP or DP
warning tp 16 exceeds llama-3-70b's 8 KV heads: each KV head is replicated on 2 ranks (KV memory x2)
        next: keep tp <= kv_heads, or accept the extra KV memory
info    the step's communication is latency-bound: 32448.0 us of fixed cost vs 1290.9 us moving bytes
        next: larger batches cost little more communication per step
$ collcalc plan --model llama-3-70b --tokens 8 --tp 8 --platform hgx-h100 --mode normal --dispatch-dtype bf16 --combine-dtype fp8 --imbalance 1.5 --format json
{"schema_version":1,"command":"plan","query":{"model":"llama-3-70b","phase":"decode","tokens":8,"dtype":"bf16","tp":8,"pp":1,"ep":1,"dp":1,"cp":1,"sp":false,"rank_order":"tp,cp,ep,pp,dp","gpus":8,"gpus_per_node":8,"nodes":1,"intra_link":"nvlink4","inter_link":"ib-ndr","overlap":0,"sm_slowdown":1,"comm_us":3011.6693333333337,"exposed_us":3011.6693333333337,"floor_us":3011.6693333333337,"latency_us":2400,"bandwidth_us":611.6693333333334,"dominant":"latency","cost_model":"nccl","cross_node_fixed_us":0,"weight_dtype":"bf16","kv_dtype":"bf16","context":4096,"chunks":1,"prompts":0,"gpu":"H100 SXM","memory_bytes_per_gpu":19261764736,"weight_bytes_per_gpu":17650000000,"kv_bytes_per_gpu":1342177280,"activation_bytes_per_gpu":1152000,"buffer_bytes_per_gpu":268435456,"memory_capacity_bytes":72000000000,"memory_checked":true,"fits":true,"max_tokens":322,"max_context":165040,"compute_modeled":true,"compute_us":5587.34504119403,"compute_flops_us":0,"compute_memory_us":5587.34504119403,"bubble_us":0,"step_us":8599.014374527364,"batches_in_flight":1,"stage_us":8599.014374527364,"token_latency_us":8599.014374527364,"tokens_per_s_per_gpu":116.29239776157068,"comm_share":0.3502342480383244,"verdict":"ok"},"plan":[{"model":"llama-3-70b","phase":"decode","tokens":8,"tp":8,"cp":1,"ep":1,"pp":1,"dp":1,"gpus":8,"nodes":1,"context":4096,"sequences":8,"chunks":1,"prompts":0,"weight_bytes_per_gpu":17650000000,"kv_bytes_per_gpu":1342177280,"activation_bytes_per_gpu":1152000,"buffer_bytes_per_gpu":268435456,"optimizer_bytes_per_gpu":0,"memory_bytes_per_gpu":19261764736,"memory_capacity_bytes":72000000000,"memory_checked":true,"fits":true,"max_tokens":322,"max_context":165040,"compute_modeled":true,"flops_type":"bf16","compute_us":5587.34504119403,"compute_flops_us":0,"compute_memory_us":5587.34504119403,"bubble_us":0,"comm_us":3011.6693333333337,"exposed_us":3011.6693333333337,"step_us":8599.014374527364,"batches_in_flight":1,"stage_us":8599.014374527364,"token_latency_us":8599.014374527364,"ttft_us":null,"tokens_per_s_per_gpu":116.29239776157068,"comm_share":0.3502342480383244,"verdict":"ok","errors":0,"warnings":0,"collectives":[{"kind":"tp-allreduce","group_size":8,"nodes":1,"crosses_node":false,"link":"nvlink4","algorithm":"ring","count_per_layer":2,"count_per_step":160,"message_bytes":131072,"latency_us_each":15,"bandwidth_us_each":3.8229333333333337,"time_us_each":18.822933333333335,"total_us":3011.6693333333337,"hidden_fraction":0,"exposed_us":3011.6693333333337,"dominant":"latency"}]}],"collectives":[{"kind":"tp-allreduce","group_size":8,"nodes":1,"crosses_node":false,"link":"nvlink4","algorithm":"ring","count_per_layer":2,"count_per_step":160,"message_bytes":131072,"latency_us_each":15,"bandwidth_us_each":3.8229333333333337,"time_us_each":18.822933333333335,"total_us":3011.6693333333337,"hidden_fraction":0,"exposed_us":3011.6693333333337,"dominant":"latency"}],"findings":[{"severity":"info","code":"moe-options-dense","message":"--mode normal, --dispatch-dtype bf16, --combine-dtype fp8, --imbalance 1.5 have no effect: llama-3-70b is dense (no expert dispatch)","next_step":"","lines":""},{"severity":"info","code":"latency-bound","message":"the step's communication is latency-bound: 2400.0 us of fixed cost vs 611.7 us moving bytes","next_step":"larger batches cost little more communication per step","lines":""}],"notes":[]}
$ collcalc plan --model llama-3.1-8b --phase train --tokens 64k --dp 8 --context 8k --platform hgx-h100
llama-3.1-8b train, 65536 tokens per step, weights bf16, activations/KV bf16: TP 1 x CP 1 x EP 1 x PP 1 x DP 8 = 8 GPUs on 1 node of 8 (rank order tp,cp,ep,pp,dp)
collectives costed with NCCL's tuner on the platform, one process per GPU (--launch process-per-gpu; all-to-all and send/recv: its point-to-point model)

collective    group  nodes  link     algorithm  per layer  per step  message     each  per step  exposed  dominant
dp-allreduce      8      1  nvlink4  nvls               0         1  16.1 GB  58.7 ms   58.7 ms  58.7 ms  bandwidth

communication per step 58.7 ms, exposed 58.7 ms (overlap 0%, SM slowdown 1); fixed (latency) part 25.0 us: bandwidth-bound
memory per GPU 165 GB: weights 16.1 GB (bf16, native), KV cache 0 B (bf16, none in training; sequences of 8192 tokens), activations 36.5 GB, buffers 268 MB, gradients + Adam 112 GB
DOES NOT FIT: 72.0 GB usable of 80 GB H100 SXM (90 %)
nothing fits: shard the weights further
step 485 ms = compute 426 ms (FLOP-bound 426 ms, memory-bound 0 us; bf16 at 989 TFLOP/s, 3350 GB/s, x 1) + pipeline bubble 0 us + exposed communication 58.7 ms
time per step 485 ms, 16,896 tokens/s per GPU, communication 12 % of the step
verdict: violation

error   needs 165.3 GB per GPU (weights 16.1, KV cache 0.0, activations 36.5, buffers 0.3, gradients and optimizer 112.4), more than the 72.0 GB usable
        next: shard further (more TP, PP or EP) or use GPUs with more memory
$ collcalc plan --model llama-3-70b --phase prefill --tokens 128k --search --cp 2 --platform hgx-h100 --nodes 2 --top 2
llama-3-70b prefill, 131072 tokens per step on 16 GPUs (8 per node): 10 factorizations with cp 2 costed, best 2: plans that fit in memory first, then without an error-level violation, then by peak tokens/s per GPU (at the most tokens per step that fit)

rank  TP  CP  EP  PP  DP  fits  memory/GPU    step  chunks    TTFT  tok/s/GPU  budget  peak tokens  peak tok/s/GPU  comm/step  exposed  errors  warnings  violations
   1   1   2   1   4   2  yes      63.2 GB  10.3 s       2  20.5 s       3193  -           262,144            3193    12.2 ms  12.2 ms       0         0  
   2   1   2   1   8   1  yes      51.5 GB  20.7 s       1  20.7 s       3167  -           131,072            3167     164 ms   164 ms       0         0  
$ collcalc plan --model llama-3-70b --phase prefill --tokens 128k --search --cp 2 --platform hgx-h100 --nodes 2 --top 1 --format csv
rank,tp,cp,ep,pp,dp,fits,memory_bytes_per_gpu,step_us,chunks,ttft_us,tokens_per_s_per_gpu,budget,peak_tokens,peak_step_us,peak_tokens_per_s_per_gpu,comm_share,comm_us,exposed_us,dominant,errors,warnings,violations
1,1,2,1,4,2,yes,63217800448,10261668.660906648,2,20523337.321813297,3192.775171023668,,262144,20519848.851599563,3193.319714276494,0.0011890721786404904,12201.864711111111,12201.864711111111,bandwidth,0,0,
$ collcalc plan --model llama-3.1-405b --tp 8 --tokens 64 --platform hgx-h100 --weight-dtype fp8
llama-3.1-405b decode, 64 tokens per step, weights fp8, activations/KV bf16: TP 8 x CP 1 x EP 1 x PP 1 x DP 1 = 8 GPUs on 1 node of 8 (rank order tp,cp,ep,pp,dp)
collectives costed with NCCL's tuner on the platform, one process per GPU (--launch process-per-gpu; all-to-all and send/recv: its point-to-point model)

collective    group  nodes  link     algorithm  per layer  per step  message     each  per step  exposed  dominant
tp-allreduce      8      1  nvlink4  nvls               2       252  2.10 MB  39.8 us   10.0 ms  10.0 ms  latency

communication per step 10.0 ms, exposed 10.0 ms (overlap 0%, SM slowdown 1); fixed (latency) part 6.30 ms: latency-bound
memory per GPU 67.9 GB: weights 50.7 GB (fp8), KV cache 16.9 GB (bf16 at 4096 context), activations 14.2 MB, buffers 268 MB
fits: 72.0 GB usable of 80 GB H100 SXM (90 %)
largest that fits: 79 tokens per step at 4096 context; context 5081 at 64 tokens
step 30.2 ms = compute 20.1 ms (FLOP-bound 0 us, memory-bound 20.1 ms; fp8 at 1979 TFLOP/s, 3350 GB/s, x 1) + pipeline bubble 0 us + exposed communication 10.0 ms
time per output token 30.2 ms, 265.3 tokens/s per GPU, communication 33 % of the step
verdict: ok

info    the step's communication is latency-bound: 6300.0 us of fixed cost vs 3740.2 us moving bytes
        next: larger batches cost little more communication per step
$ collcalc plan --model llama-3.1-8b --phase train --tokens 1000 --context 4k --dp 4 --pp 4 --platform hgx-h100 --nodes 2
llama-3.1-8b train, 1000 tokens per step, weights bf16, activations/KV bf16: TP 1 x CP 1 x EP 1 x PP 4 x DP 4 = 16 GPUs on 2 nodes of 8 (rank order tp,cp,ep,pp,dp)
collectives costed with NCCL's tuner on the platform, one process per GPU (--launch process-per-gpu; all-to-all and send/recv: its point-to-point model)

collective    group  nodes  link            algorithm  per layer  per step  message     each  per step  exposed  dominant
pp-sendrecv       4      1  nvlink4         direct             0        12   516 kB  13.2 us    159 us   159 us  latency
dp-allreduce      4      2  nvlink4+ib-ndr  ring               0         1  4.01 GB  62.8 ms   62.8 ms  62.8 ms  bandwidth  <- crosses the node boundary

communication per step 63.0 ms, exposed 63.0 ms (overlap 0%, SM slowdown 1); fixed (latency) part 212 us: bandwidth-bound
a group crosses the node boundary: each of its collectives costs at least 70.0 us
memory per GPU 32.9 GB: weights 4.01 GB (bf16, native), KV cache 0 B (bf16, none in training; sequences of 4096 tokens), activations 281 MB, buffers 537 MB, gradients + Adam 28.1 GB
fits: 72.0 GB usable of 80 GB H100 SXM (90 %)
largest that fits: 131072 tokens per step of 4096-token sequences
step 91.8 ms = compute 16.5 ms (FLOP-bound 205 us, memory-bound 16.3 ms; bf16 at 989 TFLOP/s, 3350 GB/s, x 1) + pipeline bubble 12.4 ms + exposed communication 63.0 ms
time per step 91.8 ms, 680.9 tokens/s per GPU, communication 69 % of the step
verdict: ok, with warnings

warning a micro-batch holds 62.5 tokens (--tokens 1000 / dp 4 / ep 1 / --micro-batches 4), less than one 4096-token sequence (--context)
        next: give --tokens at least dp x ep x micro-batches x context, fewer --micro-batches, or a shorter --context
