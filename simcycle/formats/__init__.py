"""One module per format; see simcycle/scenario.py for the functions each offers."""
