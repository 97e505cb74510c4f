"""timef.torch over torch.distributed: two gloo processes (rendezvous through a file, no port),
each with a DataLoader of two workers; what the ranks saw is gathered with all_gather_object."""

import json
import os
import subprocess
import sys

HERE = os.path.dirname(__file__)


def test_two_ranks_cover_the_epoch_once_and_resume(hello, tmp_path):
    out = tmp_path / "gathered.json"
    procs = [subprocess.Popen([sys.executable, os.path.join(HERE, "ddp_epoch.py"), hello,
                               str(tmp_path / "rendezvous"), str(rank), "2", str(out)],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
             for rank in range(2)]
    for p in procs:
        stdout, stderr = p.communicate(timeout=600)
        assert p.returncode == 0, stderr
    ranks = json.loads(out.read_text())
    assert [r["rank"] for r in ranks] == [0, 1]
    every = ranks[0]["all"]
    n = len(every)
    assert n % 2 == 1  # odd: one sample repeats
    order = ranks[0]["order0"]
    assert ranks[1]["order0"] == order  # one global order
    seen = ranks[0]["first"] + ranks[1]["first"]
    assert len(ranks[0]["first"]) == len(ranks[1]["first"]) == (n + 1) // 2
    assert sorted(seen) == sorted(every + order[:1])  # every sample once, plus the padding
    for r in (0, 1):
        assert ranks[r]["first"] == (order + order[:1])[r::2]
    # The resumed epoch: the rest after two batches per rank finishes the same epoch.
    assert ranks[0]["state"] == ranks[1]["state"]
    order1 = ranks[0]["order1"]
    for r in (0, 1):
        assert len(ranks[r]["head"]) == 4
        assert ranks[r]["head"] + ranks[r]["rest"] == (order1 + order1[:1])[r::2]
    resumed = [i for r in ranks for i in r["head"] + r["rest"]]
    assert sorted(resumed) == sorted(every + order1[:1])
