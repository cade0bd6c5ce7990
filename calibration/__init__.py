"""Colour profiles: learn, store and load what each cube colour looks like to a camera."""
