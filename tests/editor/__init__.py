"""Tests of the author's tools: rulelang fmt and the language server."""
