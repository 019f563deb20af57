# Sourced by the device experiments (scripts/device-*.sh): `step NAME
# SECONDS COMMAND...` runs one step of an experiment with a time limit, logs
# its output to $R/NAME.txt and its status to $R/steps.txt, and packs /tmp/r
# into $OUT/results.tar.gz after each step, so that what ran comes back even
# when a later step is cut off. The experiment's arguments (NAME:SECONDS
# ...) choose the steps to run and their limits; none runs every step.
# Expects R=/tmp/r and the experiment's arguments in $chosen (" $* ").
step() {
  local name=$1 limit=$2
  shift 2
  if [[ "$chosen" != "  " ]]; then
    [[ "$chosen" =~ \ $name:([0-9]+)\  ]] || return 0
    limit=${BASH_REMATCH[1]}
  fi
  local start=$SECONDS
  timeout "$limit" "$@" >"$R/$name.txt" 2>&1
  echo "$name rc=$? seconds=$((SECONDS - start))" | tee -a "$R/steps.txt"
  tar -czf "$OUT/results.tar.gz" -C /tmp r
}
