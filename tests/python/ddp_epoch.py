"""One rank of test_ddp.py: ``ddp_epoch.py RELEASE INIT_FILE RANK WORLD OUT``.

Joins a gloo process group through a file (no port), reads one epoch of SignalDataset through
timef.torch.Sampler and a DataLoader of two workers, then a second epoch stopped after two
batches and finished by a fresh sampler loaded from the state (in a loader without workers).
What every rank saw is gathered with all_gather_object; rank 0 writes it to OUT as JSON."""

import json
import os
import sys

import torch.distributed as dist
from torch.utils.data import DataLoader

from timef.torch import Sampler, SignalDataset, collate_pad


def collate(items):
    # The demo's signals have many dtypes; one batch holds one.
    return collate_pad([{"signal_id": i["signal_id"], "values": i["values"].double()}
                        for i in items])


def main(release, init_file, rank, world, out):
    dist.init_process_group("gloo", init_method=f"file://{init_file}", rank=rank,
                            world_size=world)
    dataset = SignalDataset(release)
    sampler = Sampler(dataset, seed=11, block_size=2, window=2)  # ranks from the process group
    loader = DataLoader(dataset, batch_size=2, sampler=sampler, num_workers=2,
                        collate_fn=collate, persistent_workers=True)
    sampler.set_epoch(0)
    first = [i for batch in loader for i in batch["signal_id"].tolist()]

    sampler.set_epoch(1)
    head = []
    for step, batch in enumerate(loader):
        head += batch["signal_id"].tolist()
        if step == 1:
            break
    state = sampler.state_dict(consumed=len(head))
    resumed = Sampler(dataset, seed=11, block_size=2, window=2)
    resumed.load_state_dict(state)
    rest = [i for batch in DataLoader(dataset, batch_size=2, sampler=resumed,
                                      collate_fn=collate)
            for i in batch["signal_id"].tolist()]

    mine = {"rank": rank, "first": first, "head": head, "rest": rest, "state": state,
            "all": [dataset[i]["signal_id"] for i in range(len(dataset))],
            "order0": [dataset[i]["signal_id"] for i in sampler.global_order(0).tolist()],
            "order1": [dataset[i]["signal_id"] for i in sampler.global_order(1).tolist()]}
    gathered = [None] * world
    dist.all_gather_object(gathered, mine)
    if rank == 0:
        with open(out, "w") as f:
            json.dump(gathered, f)
    # Not dist.destroy_process_group(): in torch 1.13 it can hang for good (the gloo group's
    # destructor holds the GIL while joining a worker that waits for it; see leave() in
    # examples/python/train_ddp.py). Every rank waits for the others, then ends at once.
    del loader  # stops the persistent DataLoader workers
    dist.barrier()
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(0)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), sys.argv[5])
