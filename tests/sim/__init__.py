"""Tests of simulations (rulelang/sim/): runs, pools, statistics, metrics, sweeps, coverage, reports."""
