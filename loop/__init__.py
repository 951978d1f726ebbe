"""The assembled loop: the graph wired from its nodes, the runner that runs it, and what a run opens."""
