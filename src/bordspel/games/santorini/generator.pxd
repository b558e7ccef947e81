cimport cython

# generator.py is compiled as it is (setup.py builds it as bordspel._native.santorini_generator,
# the twin that the search and the packed play with gods call); generator.py stays plain Python,
# the reference, and the engine's own queries use it.
