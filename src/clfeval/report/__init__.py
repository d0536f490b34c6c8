"""Renderings of an Evaluation: the report table and its text, Markdown, JSON, terminal and HTML
forms. Heavy dependencies (rich, plotly) are imported only by the modules that need them."""
