"""te-wheel's command, installed by pip with the Java runtime it runs on: the console script ``te-wheel``."""
