import sys
print("# each GPU's mean sm% (nvidia-smi dmon -s u, once a second) between a run's start and end in marks.txt")
for call in sys.argv[1:]:
    print("==", call)
    marks={}
    for l in open(call+'/marks.txt'):
        t,what,name=l.split()
        marks.setdefault(name,{})[what]=t
    rows=[l.split() for l in open(call+'/dmon.txt') if not l.startswith('#')]
    for name,m in marks.items():
        out=[]
        for g in ('0','1'):
            v=[int(r[2]) for r in rows if m['start']<=r[0]<=m['end'] and r[1]==g and r[2]!='-']
            out.append("GPU %s %2.0f%%"%(g,sum(v)/len(v)))
        print("%-28s %s"%(name,", ".join(out)))
