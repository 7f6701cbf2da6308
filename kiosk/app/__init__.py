"""The shell: the `dartship` command, the one composition root, doctor, backup, logs."""
