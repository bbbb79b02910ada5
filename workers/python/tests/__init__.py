# Tests run from a checkout without installing the package: python3 -m unittest discover (in workers/python).
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "src"))
