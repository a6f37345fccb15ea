"""The live panes, one module each: groups, pods, events and the node ledger (GPUs).

Each holds its rows from scratch (pure functions of the store), the model that keeps them up to
date from the store's changes (Store.take_changes) and equals them at every moment
(tests/ui/test_incremental.py), and the widget that draws them. common.py holds what they share.
"""
