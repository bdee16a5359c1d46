"""Ship the top-level ``templates/`` inside the package.

The tablet's templates live at the top level of the repository (where a
designer looks for them), but a wheel must carry them: ``package_dir`` maps
that folder to the package ``referee.templates``, so a plain ``pip install .``
serves every page. Everything else is in pyproject.toml.
"""

from setuptools import find_packages, setup

setup(
    packages=[*find_packages(include=["referee", "referee.*"]), "referee.templates"],
    package_dir={"referee.templates": "templates"},
    package_data={
        "referee": ["fonts/*.ttf", "fonts/*.txt", "web/static/*",
                    "translations/*/LC_MESSAGES/*.mo"],
        "referee.templates": ["*.html", "*/*.html"],
    },
)
