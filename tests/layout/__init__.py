"""Tests of the layout of rulelang/: modules by job, no import circle, no private name imported across modules."""
