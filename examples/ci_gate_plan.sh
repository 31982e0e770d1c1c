#!/usr/bin/env bash
# A CI gate on a deployment plan: fails the pipeline when the planned
# placement breaks a rule (TP across the NVLink domain, TP above the KV
# heads, weights that do not fit...) or when its per-step communication
# exceeds a budget. Copy it next to your deployment file and set the plan.
#   examples/ci_gate_plan.sh [BUDGET_MS]      (default 5 ms per decode step)
# collcalc comes from $COLLCALC, else PATH. Exits 77 (skipped) without jq.
set -euo pipefail
collcalc=${COLLCALC:-collcalc}
budget_ms=${1:-5}
command -v jq >/dev/null 2>&1 || { echo "ci_gate_plan: needs jq (apt-get install jq); skipped" >&2; exit 77; }

gate() { # gate NAME PLAN-OPTIONS...: 0 when the plan passes, 1 when it must not ship
  local name=$1
  shift
  local json status=0
  # --strict: exit 3 on an error-level rule; the JSON is printed either way.
  json=$("$collcalc" plan "$@" --strict --format json) || status=$?
  if [ "$status" -ne 0 ] && [ "$status" -ne 3 ]; then
    echo "$name: collcalc failed (exit $status)" >&2
    return 2
  fi
  local verdict step_ms
  verdict=$(jq -r '.query.verdict' <<<"$json")
  step_ms=$(jq -r '(.query.exposed_us / 10 | round) / 100' <<<"$json")
  if [ "$status" -eq 3 ]; then
    echo "$name: FAIL ($verdict): $(jq -r '[.findings[] | select(.severity == "error") | .code] | join(", ")' <<<"$json")"
    return 1
  fi
  if awk -v t="$step_ms" -v b="$budget_ms" 'BEGIN { exit !(t > b) }'; then
    echo "$name: FAIL: ${step_ms} ms of communication per step, budget ${budget_ms} ms"
    return 1
  fi
  echo "$name: ok ($verdict, ${step_ms} ms per step)"
}

# The plan this gate protects: Llama 3 70B decode, TP 8 on one HGX H100 node.
gate "llama-3-70b tp8 on hgx-h100" --model llama-3-70b --phase decode --tokens 64 --tp 8 \
  --platform hgx-h100
# A change someone might propose: TP 16 across two nodes. The gate must stop it.
if gate "llama-3-70b tp16 on 2x hgx-h100" --model llama-3-70b --phase decode --tokens 64 \
  --tp 16 --platform hgx-h100; then
  echo "ci_gate_plan: TP 16 across two nodes passed the gate; it must not" >&2
  exit 1
fi
# The same TP 16 inside one NVL72 rack is fine.
gate "llama-3-70b tp16 on gb200-nvl72" --model llama-3-70b --phase decode --tokens 64 --tp 16 \
  --platform gb200-nvl72
