"""
Write a game record, read it back, step through it, and see what an edited record raises.

    python examples/replay_record.py
"""

from __future__ import annotations

import json
import random

import bendolib
from bendolib import position_text, records

# Play a short match with random legal moves.
rules = bendolib.rules.get("basic", target=60)
state = bendolib.new_game(rules, players=2, seed=21)
rng = random.Random(21)
while not state.is_game_over:
    state = bendolib.apply(state, rng.choice(bendolib.legal_moves(state)))

# The record: JSON text with every move of every round.
text = records.dump(state, names=["ann", "bob"])
record = records.load(text)
print(f"{record.rules.name}: {len(record.rounds)} rounds, {record.move_count} moves")

# Step through the first round; each move is checked as it is replayed.
for step in records.steps(record):
    if step.round_number > 1:
        break
    who = record.names[step.player]
    print(f"  round {step.round_number} move {step.move_number:2}: {who} plays {step.text}")
    if step.move_number == 5:
        print("  position after move 5:", position_text.dumps(step.state)[:72], "...")

final = records.replay(record)
assert final == state
print("replayed to the same final state; scores", list(final.scores))

# An edited record is caught, with the round and move at fault.
data = json.loads(text)
data["rounds"][0]["moves"][3] = "0-0@9L"
try:
    records.replay(records.load(json.dumps(data)))
except bendolib.RecordError as exc:
    print("edited record:", exc)
