# Each GPU's means over each run's span (marks.txt) of what nvidia-smi dmon
# sampled once a second (dmon.txt): sm% (time with a kernel running) and,
# where sampled (-s ut), PCIe MB/s into the GPU (rx) and out of it (tx).
# Usage: python3 gpu-busy.py call1 call2 ...
import sys

for call in sys.argv[1:]:
    print("==", call)
    marks = {}
    for line in open(call + "/marks.txt"):
        time, what, name = line.split()
        marks.setdefault(name, {})[what] = time
    rows = [line.split() for line in open(call + "/dmon.txt") if not line.startswith("#")]
    pcie = any(len(row) >= 10 for row in rows)
    print("# run: per GPU sm%" + (" / rx MB/s / tx MB/s; then the GPUs' tx together" if pcie else ""))
    for name, span in marks.items():
        cells, tx_total = [], 0.0
        for gpu in "0123":
            samples = [r for r in rows if span["start"] <= r[0] <= span["end"] and r[1] == gpu and r[2] != "-"]
            if not samples:
                continue
            mean = lambda column: sum(int(r[column]) for r in samples) / len(samples)
            if pcie:
                tx_total += mean(9)
                cells.append("%3.0f%% /%6.0f /%6.0f" % (mean(2), mean(8), mean(9)))
            else:
                cells.append("%3.0f%%" % mean(2))
        print("%-28s %s%s" % (name, "   ".join(cells), "   tx %.1f GB/s" % (tx_total / 1000) if pcie else ""))
