# Helpers for timing `matload conform` on a lent GPU host, sourced by the
# run.sh of a report under reports/bench/ and run from the repository root
# there, with the binaries carried in build/devcheck and their libraries in
# build/devcheck/lib. Each writes under $OUT:
#   host                      the machine, into host.txt;
#   run NAME BINARY VARIANTS DEVICES [FLAGS...]
#                             one conform run under /usr/bin/time -v (seed
#                             20261126, results store /tmp/night.sqlite),
#                             its span in marks.txt, its figures in figures.txt;
#                             with PIN set to a CPU list, on those CPUs alone
#                             (taskset), as on a host with fewer cores;
#   same A B                  whether runs A and B have the same results.tsv
#                             below the header, into equality.txt;
#   sampled COMMAND...        COMMAND with nvidia-smi sampling each GPU's
#                             kernel time into dmon.txt (and whatever else
#                             DMON, dmon's -s letters, names: "ut" adds PCIe);
#                             scripts/device-gpu-busy.py averages it per run.
D=build/devcheck
export LD_LIBRARY_PATH=$PWD/$D/lib MATLOAD_SOURCE_DIR=$PWD

host() {
  { date -u; nvidia-smi --query-gpu=index,name,persistence_mode,driver_version --format=csv,noheader; nproc;
    lscpu | grep -E 'Model name|Thread|Core|Socket'; } > $OUT/host.txt 2>&1
}

run() {
  local name=$1 binary=$2 variants=$3 devices=$4
  shift 4
  echo "$(date -u +%T) start $name" >> $OUT/marks.txt
  ${PIN:+taskset -c $PIN} /usr/bin/time -v $D/$binary conform --variants $variants --seed 20261126 --devices $devices "$@" --out /tmp/$name \
    --db /tmp/night.sqlite > /tmp/$name.log 2> /tmp/$name.time-v.txt
  local rc=$?
  echo "$(date -u +%T) end $name" >> $OUT/marks.txt
  echo "$name rc=$rc $(grep -E 'Elapsed|Maximum resident|User time|System time' /tmp/$name.time-v.txt | tr -s ' ' | sed 's/(h:mm:ss or m:ss)//; s/(seconds)//; s/(kbytes)//' | tr '\n' ' ') | $(python3 -c "import json;d=json.load(open('/tmp/$name/summary.json'));print(' '.join('%s=%.1f'%(p['what'].split()[0],p['seconds']) for p in d['phases']), 'exec', d['executions'], 'findings', d['findings'], 'remembered', d['confirmations_remembered'], ' '.join('worker-%s=%.1f'%kv for kv in d.get('worker_seconds',{}).items()))")" >> $OUT/figures.txt
  tail -n +2 /tmp/$name/results.tsv > /tmp/$name.rows
}

same() { cmp -s /tmp/$1.rows /tmp/$2.rows && echo "$1 = $2" >> $OUT/equality.txt || echo "$1 DIFFERS from $2" >> $OUT/equality.txt; }

sampled() {
  nvidia-smi dmon -s ${DMON:-u} -d 1 -o T > $OUT/dmon.txt 2>&1 &
  local dmon=$!
  "$@"
  kill $dmon
}
