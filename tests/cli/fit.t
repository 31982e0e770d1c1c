$ collcalc fit examples/nccl_allreduce_p4de_efa_2node.txt --platform aws-p4de --nodes 2
{
	"schema_version":	1,
	"platforms":	[{
			"name":	"aws-p4de-fitted",
			"description":	"AWS p4de.24xlarge: 8x A100 80GB SXM4 on NVSwitch, 4x 100 Gbps EFA (400 Gbps)",
			"gpu":	"A100 SXM4 80GB",
			"gpus_per_node":	8,
			"intra_link":	"nvlink3",
			"inter_link":	"eth100",
			"nics_per_node":	4,
			"memory_link":	"hbm2e",
			"host_link":	"pcie4",
			"nvls":	false,
			"sharp":	false,
			"gpu_arch":	"sm80",
			"cpu_vendor":	"intel",
			"transport":	"efa",
			"nics_per_gpu":	1,
			"p2p":	true,
			"nvswitch":	true,
			"nvlink_links_per_gpu":	12,
			"nccl_fit":	{
				"latency_inter_us":	0.7,
				"bw_efficiency":	0.903,
				"source":	"collcalc fit of examples/nccl_allreduce_p4de_efa_2node.txt"
			},
			"sources":	{
				"topology":	"AWS EC2 P4 page: 8x A100 80GB, NVSwitch 600 GB/s; HBM2e 2,039 GB/s (NVIDIA A100 datasheet); PCIe Gen4",
				"nics":	"AWS EC2 P4 page: 400 Gbps EFA = 4x 100 Gbps, as p4d; the project's p4de nccl-tests run uses 4 EFA NICs",
				"nvls":	"No: NVSwitch gen 2 (A100) has no in-switch reduction",
				"arch":	"A100: compute capability 8.0; Intel Xeon Platinum 8275CL as p4d (AWS EC2 P4 page)",
				"transport":	"AWS Elastic Fabric Adapter through aws-ofi-nccl",
				"fabric":	"12 NVLink3 links per GPU on NVSwitch gen 2 (NVIDIA A100 datasheet: 600 GB/s)"
			}
		}]
}
[stderr] collcalc fit: note: fitted aws-p4de-fitted: median |busbw error| >= 1 MiB 14.8% -> 7.0%, |time error| <= 64 KiB 1.9% -> 1.0% (--output FILE for the report)
$ collcalc fit examples/nccl_allreduce_h100_2node.txt --platform hgx-h100 --nodes 2 --output /dev/null
fit of hgx-h100's NCCL model to 1 run (NCCL's tuner with collcalc's corrections)

parameter          fitted  value  unit    min   max  meaning
latency_inter_us      yes    2.2  us        0   200  added to every network step's latency (twice for Simple), as a net plugin reports it
bw_efficiency         yes  0.976  ratio   0.2  1.25  share of NCCL's per-channel bandwidth (NVLink, PCIe, NICs) the cluster delivers
fabric_efficiency       -      -  ratio  0.05     1  share of the network bandwidth the fabric delivers beyond 2 nodes

file                                    op         nodes  GPUs/node  NCCL    rows >= 1 MiB  median |busbw error|  rows <= 64 KiB  median |time error|
examples/nccl_allreduce_h100_2node.txt  allreduce      2          8  2.25.1             15  3.4% -> 1.1%                      14  13.9% -> 7.4%

fabric_efficiency not fitted: needs a run on more than 2 nodes
wrote /dev/null: platform 'hgx-h100-fitted' (use it with --platforms /dev/null --platform hgx-h100-fitted)
[stderr] collcalc fit: note: /dev/null existed and was replaced
$ collcalc fit examples/nccl_allreduce_h100_2node.txt examples/nccl_allreduce_p4de_efa_2node.txt --platform hgx-h100 --nodes 2 --output /dev/null --format csv
parameter,fitted,value,unit,min,max,at_bound,meaning,not_fitted_because
latency_inter_us,true,0.5,us,0,200,false,"added to every network step's latency (twice for Simple), as a net plugin reports it",
bw_efficiency,true,0.2,ratio,0.2,1.25,true,"share of NCCL's per-channel bandwidth (NVLink, PCIe, NICs) the cluster delivers",
fabric_efficiency,false,,ratio,0.05,1,false,share of the network bandwidth the fabric delivers beyond 2 nodes,needs a run on more than 2 nodes
[stderr] collcalc fit: note: /dev/null existed and was replaced
[stderr] collcalc fit: warning: bw_efficiency = 0.2 is at the edge of its physical range 0.2..1.25: check --platform, --nodes and that the run is healthy ('collcalc check')
$ collcalc fit examples/nccl_allreduce_h100_2node.txt --platform hgx-h100 --nodes 2 --name h100-lab --output /dev/null --format json
{"schema_version":1,"command":"fit","query":{"platform":"hgx-h100","fitted_platform":"h100-lab","output":"/dev/null"},"parameters":[{"parameter":"latency_inter_us","fitted":true,"value":2.2,"unit":"us","min":0,"max":200,"at_bound":false,"meaning":"added to every network step's latency (twice for Simple), as a net plugin reports it","not_fitted_because":null},{"parameter":"bw_efficiency","fitted":true,"value":0.976,"unit":"ratio","min":0.2,"max":1.25,"at_bound":false,"meaning":"share of NCCL's per-channel bandwidth (NVLink, PCIe, NICs) the cluster delivers","not_fitted_because":null},{"parameter":"fabric_efficiency","fitted":false,"value":null,"unit":"ratio","min":0.05,"max":1,"at_bound":false,"meaning":"share of the network bandwidth the fabric delivers beyond 2 nodes","not_fitted_because":"needs a run on more than 2 nodes"}],"runs":[{"file":"examples/nccl_allreduce_h100_2node.txt","op":"allreduce","nodes":2,"gpus_per_node":8,"nccl_constants":"2.25.1","large_rows":15,"busbw_error_before":0.03449641795940461,"busbw_error_after":0.011251754441419182,"small_rows":14,"time_error_before":0.13853270991703176,"time_error_after":0.07439545497746708}],"notes":[]}
[stderr] collcalc fit: note: /dev/null existed and was replaced
$ collcalc fit
[stderr] collcalc fit: missing the input: one or more nccl-tests output FILEs ('-' for standard input) (see 'collcalc fit --help')
[exit 2]
$ collcalc fit examples/topo_pcie_switch_pairs.txt --platform hgx-h100
[stderr] collcalc fit: examples/topo_pcie_switch_pairs.txt: not nccl-tests output: no table in 10 lines (expected a header such as '#  size  count  type  redop  root  time  algbw  busbw  #wrong ...' followed by rows of numbers, or the excerpt 'size time algbw busbw')
[exit 1]
$ collcalc fit examples/nccl_allreduce_h100_2node.txt --platform hgx-h100 --format json
[stderr] collcalc fit: --format: without --output the platform file is what fit prints; give --output FILE to get the report in this format (see 'collcalc fit --help')
[exit 2]
$ collcalc fit examples/nccl_allreduce_h100_2node.txt --platform hgx-h100 --nodes 2 --name H100
[stderr] collcalc fit: --name: platform name 'H100' must be 1..31 characters of a-z, 0-9, '.' and '-' (see 'collcalc fit --help')
[exit 2]
$ collcalc fit examples/nccl_allreduce_h100_2node.txt --platform hgx-h100 --nodes 3
[stderr] collcalc fit: --nodes: examples/nccl_allreduce_h100_2node.txt: 16 ranks do not split evenly over 3 nodes (see 'collcalc fit --help')
[exit 2]
