"""Stage 1: configure linux1's link towards the switches."""
import os
import subprocess

host = os.environ["ANTIDOTE_TARGET_HOST"]
subprocess.run(["ssh", f"antidote@{host}", "sudo ip link set net1 up"], check=False)
