. "$SRC/evil_lib.setup.inc"
