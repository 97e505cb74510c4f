#!/usr/bin/python3
"""Trains a small 1-D CNN on the rhythm labels of a TimeF release (the release write_ecg.py
writes, or any whose classification tasks take one record of same-named leads), on CPU.

    PYTHONPATH=build/python /usr/bin/python3 examples/python/train_ecg.py RELEASE [--epochs N]

TaskDataset gives each task's values (one dict per input record, lead name -> tensor) and its
label; training batches are random windows of the same length (collate_crop), the test batches
whole records padded to the longest with a mask (collate_pad); timef.torch.Sampler shuffles in
storage-friendly blocks, and its state_dict, saved with the model, resumes an interrupted epoch.
"""

import argparse

import torch
from torch import nn
from torch.utils.data import DataLoader

from timef.torch import Sampler, TaskDataset, collate_crop, collate_pad

WINDOW = 1000  # steps per training window (2 s at 500 Hz)


class SmallCNN(nn.Module):
    def __init__(self, leads, classes):
        super().__init__()
        self.net = nn.Sequential(
            nn.Conv1d(leads, 16, kernel_size=7, stride=2, padding=3), nn.ReLU(),
            nn.Conv1d(16, 32, kernel_size=7, stride=2, padding=3), nn.ReLU(),
            nn.AdaptiveAvgPool1d(1), nn.Flatten(), nn.Linear(32, classes))

    def forward(self, x):
        return self.net(x)


def leads_tensor(batch, leads):
    """[batch, leads, steps] from the first input record's values, masked past each end."""
    record = batch["values"][0]
    mask = batch["mask"][0][leads[0]]
    return torch.stack([record[name].float() for name in leads], dim=1) * mask[:, None, :]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("release")
    parser.add_argument("--epochs", type=int, default=5)
    parser.add_argument("--batch-size", type=int, default=2)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    torch.manual_seed(args.seed)

    train = TaskDataset(args.release, split="train", task_type="classification", load_values=True)
    test = TaskDataset(args.release, split="test", task_type="classification", load_values=True)
    classes = train.classes
    leads = sorted(train[0]["values"][0])
    print(f"{len(train)} training tasks, classes {list(classes)}, {len(leads)} leads")

    sampler = Sampler(train, seed=args.seed, block_size=2, window=2)
    loader = DataLoader(train, batch_size=args.batch_size, sampler=sampler,
                        collate_fn=collate_crop(WINDOW, random=True))
    model = SmallCNN(len(leads), len(classes))
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-2)
    loss_fn = nn.CrossEntropyLoss()
    for epoch in range(args.epochs):
        sampler.set_epoch(epoch)
        total, count = 0.0, 0
        for batch in loader:
            optimizer.zero_grad()
            loss = loss_fn(model(leads_tensor(batch, leads)), batch["label"])
            loss.backward()
            optimizer.step()
            total += float(loss) * len(batch["label"])
            count += len(batch["label"])
        print(f"epoch {epoch + 1}: {count} samples, mean loss {total / count:.4f}")
    checkpoint = {"model": model.state_dict(), "sampler": sampler.state_dict()}
    print(f"checkpoint: epoch {checkpoint['sampler']['epoch']}, "
          f"global position {checkpoint['sampler']['offset']}")

    model.eval()
    right = 0
    with torch.no_grad():
        for batch in DataLoader(test, batch_size=4, collate_fn=collate_pad):
            right += int((model(leads_tensor(batch, leads)).argmax(1) == batch["label"]).sum())
    print(f"test: {right}/{len(test)} correct")


if __name__ == "__main__":
    main()
