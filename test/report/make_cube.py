#!/usr/bin/env python3
"""make_cube.py OUT.cubex [--big-endian] [--compress] -- a small CUBE4 file
that exercises what Scalasca's files in the test data do not: a dense
INCLUSIVE metric (rows in CubeW's "wide" order, which differs from the
preorder), sparse unsigned and signed 32-bit rows, a child metric to
subtract, a derived metric and a histogram (listed without values),
system tree nodes deeper than machine/node, a location group directly
under a machine, location Ids out of document order, cnode and region ids
out of order, a maximum (kept as stored), big-endian data and zlib-compressed rows.
Expected values: golden/cube_synthetic.out (pomp-report dump)."""
import io, struct, sys, tarfile, zlib

out = sys.argv[1]
big = '--big-endian' in sys.argv
compress = '--compress' in sys.argv
E = '>' if big else '<'

anchor = """<?xml version="1.0" encoding="UTF-8"?>
<cube version="4.7">
  <attr key="Creator" value="make_cube.py"/>
  <doc><mirrors><murl>https://example.org/help/</murl></mirrors></doc>
  <metrics>
    <metric id="5" type="INCLUSIVE">
      <disp_name>Time</disp_name><uniq_name>time</uniq_name><dtype>DOUBLE</dtype>
      <uom>sec</uom><url>@mirror@p.html#time</url><descr>Time &amp; more</descr>
      <metric id="6" type="INCLUSIVE">
        <disp_name>Max</disp_name><uniq_name>max_time</uniq_name><dtype>MAXDOUBLE</dtype><uom>sec</uom>
      </metric>
    </metric>
    <metric id="2" type="EXCLUSIVE">
      <disp_name>Calls</disp_name><uniq_name>calls</uniq_name><dtype>UINT64</dtype><uom>occ</uom>
      <metric id="7" type="EXCLUSIVE">
        <disp_name>Small</disp_name><uniq_name>small</uniq_name><dtype>INT32</dtype><uom>occ</uom>
      </metric>
    </metric>
    <metric id="9" type="POSTDERIVED">
      <disp_name>Ratio</disp_name><uniq_name>ratio</uniq_name><dtype>DOUBLE</dtype><uom>%</uom>
      <cubepl>metric::calls()/metric::time()</cubepl>
    </metric>
    <metric id="3" type="EXCLUSIVE">
      <disp_name>Hist</disp_name><uniq_name>hist</uniq_name><dtype>HISTOGRAM(2)</dtype><uom>occ</uom>
    </metric>
  </metrics>
  <program>
    <region id="13" mod="x.c" begin="30" end="40"><name>c</name><paradigm>user</paradigm><role>function</role></region>
    <region id="10" mod="x.c" begin="1" end="9"><name>main</name><paradigm>compiler</paradigm><role>function</role></region>
    <region id="11" mod="MPI" begin="-1" end="-1"><name>a</name><paradigm>mpi</paradigm><role>barrier</role></region>
    <region id="12" mod="" begin="-1" end="-1"><name>b</name></region>
    <cnode id="4" calleeId="10">
      <cnode id="1" calleeId="11"><cnode id="0" calleeId="13"></cnode></cnode>
      <cnode id="2" calleeId="12"></cnode>
    </cnode>
    <cnode id="3" calleeId="13"></cnode>
  </program>
  <system>
    <systemtreenode Id="0"><name>M</name><class>machine</class>
      <systemtreenode Id="1"><name>n1</name><class>node</class>
        <systemtreenode Id="2"><name>socket 0</name><class>socket</class>
          <locationgroup Id="0"><name>rank 0</name><rank>0</rank><type>process</type>
            <location Id="1"><name>thread 0</name><rank>0</rank><type>thread</type></location>
            <location Id="0"><name>thread 1</name><rank>1</rank><type>thread</type></location>
          </locationgroup>
        </systemtreenode>
      </systemtreenode>
      <locationgroup Id="1"><name>rank 1</name><rank>1</rank><type>process</type>
        <location Id="2"><name>thread 0</name><rank>0</rank><type>thread</type></location>
      </locationgroup>
    </systemtreenode>
  </system>
</cube>
"""

def index(positions):
    head = b'CUBEX.INDEX' + struct.pack(E + 'IHB', 1, 0, 1 if positions is not None else 3)
    if positions is None:
        return head
    return head + struct.pack(E + 'I', len(positions)) + struct.pack(E + '%dI' % len(positions), *positions)

def data(rows, fmt):
    raw = [struct.pack(E + '%d%s' % (len(r), fmt), *r) for r in rows]
    if not compress:
        return b'CUBEX.DATA' + b''.join(raw)
    blobs, sub, at, un = [], [], 0, 0
    for r in raw:
        z = zlib.compress(r)
        sub += [un, at, len(z)]
        blobs.append(z)
        at += len(z)
        un += len(r)
    return (b'ZCUBEX.DATA' + struct.pack(E + 'Q', len(raw)) +
            struct.pack(E + '%dQ' % len(sub), *sub) + b''.join(blobs))

# values per location Id 0, 1, 2; time call-inclusive, rows in wide order:
# main, a, b, c (under a), c (root)
time_rows = [[10, 20, 30], [4, 8, 12], [2, 4, 6], [1, 2, 3], [5, 5, 5]]
members = {
    'anchor.xml': anchor.encode(),
    '5.index': index(None), '5.data': data(time_rows, 'd'),
    # preorder positions: 0 main, 2 c under a
    '2.index': index([0, 2]), '2.data': data([[3, 1, 0], [7, 7, 1 << 40]], 'Q'),
    '7.index': index([2]), '7.data': data([[-1, 2, 3]], 'i'),
    # a maximum: kept as stored, not subtracted from time nor along calls
    '6.index': index([0, 1]), '6.data': data([[9, 9.5, 1], [0.5, 0.25, 0]], 'd'),
}
with tarfile.open(out, 'w', format=tarfile.USTAR_FORMAT) as t:
    for name, blob in members.items():
        info = tarfile.TarInfo(name)
        info.size = len(blob)
        t.addfile(info, io.BytesIO(blob))
