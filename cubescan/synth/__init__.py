"""Synthetic data with exact ground truth, for tests, benchmarks and the bundled samples.

Like ``skimage.data``, nothing in the scanning pipeline depends on it:

* :mod:`~cubescan.synth.specs`, :mod:`~cubescan.synth.scenes`: rendered photos of a cube
  (any N, pose, light, palette, clutter), with every sticker's true place and color;
* :mod:`~cubescan.synth.video`: scanning videos (a cube turned face by face);
* :mod:`~cubescan.synth.colors`: a camera noise model of sticker colors under lights;
* :mod:`~cubescan.synth.retake`: a real photo as another hand, camera or light took it.
"""
