"""What every feature package of the Discord layer shares: reading an interaction, the one
error path, the `/ofc` group, table options as slash options, formatting, images."""
