#!/usr/bin/python3
"""Data-parallel training on CPU: train_ecg.py's small 1-D CNN in two processes (torch.distributed
with the gloo backend, DistributedDataParallel), each reading its part of every epoch through
timef.torch.Sampler.

    PYTHONPATH=build/python /usr/bin/python3 examples/python/train_ddp.py RELEASE [--epochs N]

The processes meet through a file in a fresh temporary directory (no port to choose). The
Sampler takes the world size and rank from the process group: each epoch has one global order
(seed, epoch, dataset length, block size) and rank r takes positions r, r + 2, r + 4, ...; an odd
count repeats one sample so both ranks take as many steps. Rank 0 prints what all ranks saw.
"""

import argparse
import os
import sys
import tempfile

import torch
import torch.distributed as dist
import torch.multiprocessing as mp
from torch import nn
from torch.nn.parallel import DistributedDataParallel
from torch.utils.data import DataLoader

from timef.torch import Sampler, TaskDataset, collate_crop
from train_ecg import WINDOW, SmallCNN, leads_tensor


def train(rank, args, init_file):
    dist.init_process_group("gloo", init_method=f"file://{init_file}", rank=rank,
                            world_size=args.processes)
    torch.manual_seed(args.seed)
    dataset = TaskDataset(args.release, split="train", task_type="classification",
                          load_values=True)
    leads = sorted(dataset[0]["values"][0])
    sampler = Sampler(dataset, seed=args.seed, block_size=2, window=2)
    loader = DataLoader(dataset, batch_size=args.batch_size, sampler=sampler,
                        num_workers=args.workers, persistent_workers=args.workers > 0,
                        collate_fn=collate_crop(WINDOW, random=True))
    # DDP starts every rank from rank 0's parameters and averages the gradients of each step.
    model = DistributedDataParallel(SmallCNN(len(leads), len(dataset.classes)))
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-2)
    loss_fn = nn.CrossEntropyLoss()
    if rank == 0:
        print(f"{args.processes} processes (gloo), {len(dataset)} training tasks, "
              f"{len(sampler)} per process per epoch")
    for epoch in range(args.epochs):
        sampler.set_epoch(epoch)
        seen, total = [], 0.0
        for batch in loader:
            optimizer.zero_grad()
            loss = loss_fn(model(leads_tensor(batch, leads)), batch["label"])
            loss.backward()
            optimizer.step()
            seen += batch["task_id"].tolist()
            total += float(loss) * len(batch["label"])
        everyone = [None] * args.processes
        dist.all_gather_object(everyone, (seen, total))
        if rank == 0:
            ids = [i for part, _ in everyone for i in part]
            every = sorted({dataset[i]["task_id"] for i in range(len(dataset))})
            covered = "every task" if sorted(set(ids)) == every else "NOT every task"
            loss = sum(t for _, t in everyone) / len(ids)
            print(f"epoch {epoch + 1}: {len(ids)} samples ({covered}, "
                  f"{len(ids) - len(set(ids))} repeated), mean loss {loss:.4f}")
    # The replicas stayed one model: every rank holds rank 0's parameters.
    mine = torch.cat([p.detach().flatten() for p in model.parameters()])
    gathered = [torch.empty_like(mine) for _ in range(args.processes)]
    dist.all_gather(gathered, mine)
    if rank == 0:
        same = all(torch.equal(gathered[0], g) for g in gathered)
        print("parameters equal on every process" if same else "parameters DIFFER")
        state = sampler.state_dict()
        print(f"checkpoint: epoch {state['epoch']}, global position {state['offset']}")
    del loader  # stops persistent DataLoader workers, if any
    leave()


def leave():
    """Ends this rank's process once every rank is here, without destroying the process group.

    torch 1.13 (Debian 12's python3-torch) destroys a ProcessGroupGloo with the GIL held and
    joins its worker threads there, while a worker that is still freeing a tensor Python made
    waits for the GIL: the process can hang for good at the end (pytorch/pytorch#56297; upstream
    releases the GIL there since #154976). So no rank runs that destructor: after a barrier (no
    rank leaves while another still exchanges data), the process ends with os._exit and the
    operating system releases the rest."""
    dist.barrier()
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(0)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("release")
    parser.add_argument("--epochs", type=int, default=2)
    parser.add_argument("--batch-size", type=int, default=2)
    parser.add_argument("--processes", type=int, default=2)
    parser.add_argument("--workers", type=int, default=0, help="DataLoader workers per process")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    args.release = os.path.abspath(args.release)
    with tempfile.TemporaryDirectory(prefix="timef-ddp-") as rendezvous:
        mp.spawn(train, args=(args, os.path.join(rendezvous, "init")), nprocs=args.processes)


if __name__ == "__main__":
    main()
