"""What the session driver runs to keep the screen in step with the cluster: the inbox that
gathers the sources' changes, the pump that applies them and redraws the panes in turns of the
loop, the quiet-time garbage collector, and the pane-vs-store oracle that checks the result."""
