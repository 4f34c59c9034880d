"""Tests of simulations (rulelang/sim/): runs, pools, statistics, coverage, reports."""
