"""What several test modules share: positions, CLI runs, run folders, synthetic report data, golden outputs."""
