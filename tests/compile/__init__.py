"""Tests of the code generator (rulelang/compile/): each shortcut plays the games of the general emission."""
