"""Running many deals: seeding per chunk, run folders with atomic chunk files, backends."""
