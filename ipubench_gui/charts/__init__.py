"""Charts: ChartSpec + rows -> pyqtgraph items, and headless export."""
