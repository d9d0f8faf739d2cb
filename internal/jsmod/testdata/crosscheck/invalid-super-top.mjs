super.x();
