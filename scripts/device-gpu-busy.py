# device-gpu-busy.py CALL...: for each run of each device call of a report
# under reports/bench/, each GPU's means over the run's span (CALL/marks.txt,
# written by scripts/device-conform-runs.sh) of what `nvidia-smi dmon`
# sampled once a second (CALL/dmon.txt): sm%, the share of time with a
# kernel running, and where dmon also sampled PCIe (-s ut), the MB/s into
# the GPU (rx) and out of it (tx), with the GPUs' tx together.
import sys


def means(rows, span, gpu, columns):
    samples = [r for r in rows if span["start"] <= r[0] <= span["end"] and r[1] == gpu and r[2] != "-"]
    return [sum(int(r[c]) for r in samples) / len(samples) for c in columns] if samples else None


def report(call):
    print("==", call)
    spans = {}
    for line in open(call + "/marks.txt"):
        time, what, name = line.split()
        spans.setdefault(name, {})[what] = time
    rows = [line.split() for line in open(call + "/dmon.txt") if not line.startswith("#")]
    gpus = sorted({r[1] for r in rows})
    pcie = any(len(r) >= 10 for r in rows)
    for name, span in spans.items():
        cells, tx = [], 0.0
        for gpu in gpus:
            if pcie:
                found = means(rows, span, gpu, (2, 8, 9))
                if found:
                    tx += found[2]
                    cells.append("GPU %s %3.0f%% /%6.0f /%6.0f" % (gpu, *found))
            else:
                found = means(rows, span, gpu, (2,))
                if found:
                    cells.append("GPU %s %2.0f%%" % (gpu, found[0]))
        print("%-28s %s%s" % (name, ", ".join(cells), ", tx %.1f GB/s" % (tx / 1000) if pcie else ""))


print("# each GPU's mean sm% (nvidia-smi dmon, once a second) between a run's start and end in marks.txt;"
      " where dmon sampled PCIe too, sm% / rx MB/s / tx MB/s and the GPUs' tx together")
for call in sys.argv[1:]:
    report(call)
