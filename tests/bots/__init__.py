"""Bot tests (a package, so that tests/rules may reuse a module name such as test_pawn_soccer)."""
