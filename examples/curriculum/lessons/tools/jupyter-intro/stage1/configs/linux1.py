"""Stage 1: write a marker file on linux1."""
print("configured stage 1")
