$ collcalc --version
collcalc 0.2.0
