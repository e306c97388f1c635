"builtin.module"() <{sym_name = "jit_gammaln"}> ({
  "func.func"() <{function_type = (tensor<8x128xf32>) -> tensor<8x128xf32>, res_attrs = [{jax.result_info = "result"}], sym_name = "main", sym_visibility = "public"}> ({
  ^bb0(%arg64: tensor<8x128xf32>):
    %572 = "func.call"(%arg64) <{callee = @lgamma_impl}> : (tensor<8x128xf32>) -> tensor<8x128xf32>
    "func.return"(%572) : (tensor<8x128xf32>) -> ()
  }) : () -> ()
  "func.func"() <{function_type = (tensor<8x128xf32>) -> tensor<8x128xf32>, sym_name = "lgamma_impl", sym_visibility = "private"}> ({
  ^bb0(%arg63: tensor<8x128xf32>):
    %476 = "stablehlo.bitcast_convert"(%arg63) : (tensor<8x128xf32>) -> tensor<8x128xi32>
    %477 = "stablehlo.constant"() <{value = dense<2147483647> : tensor<i32>}> : () -> tensor<i32>
    %478 = "stablehlo.broadcast_in_dim"(%477) <{broadcast_dimensions = array<i64>}> : (tensor<i32>) -> tensor<8x128xi32>
    %479 = "stablehlo.and"(%476, %478) : (tensor<8x128xi32>, tensor<8x128xi32>) -> tensor<8x128xi32>
    %480 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    %481 = "stablehlo.broadcast_in_dim"(%480) <{broadcast_dimensions = array<i64>}> : (tensor<i32>) -> tensor<8x128xi32>
    %482 = "stablehlo.compare"(%479, %481) <{compare_type = #stablehlo<comparison_type SIGNED>, comparison_direction = #stablehlo<comparison_direction EQ>}> : (tensor<8x128xi32>, tensor<8x128xi32>) -> tensor<8x128xi1>
    %483 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    %484 = "stablehlo.broadcast_in_dim"(%483) <{broadcast_dimensions = array<i64>}> : (tensor<i32>) -> tensor<8x128xi32>
    %485 = "stablehlo.compare"(%479, %484) <{compare_type = #stablehlo<comparison_type SIGNED>, comparison_direction = #stablehlo<comparison_direction GT>}> : (tensor<8x128xi32>, tensor<8x128xi32>) -> tensor<8x128xi1>
    %486 = "stablehlo.constant"() <{value = dense<8388608> : tensor<i32>}> : () -> tensor<i32>
    %487 = "stablehlo.broadcast_in_dim"(%486) <{broadcast_dimensions = array<i64>}> : (tensor<i32>) -> tensor<8x128xi32>
    %488 = "stablehlo.compare"(%479, %487) <{compare_type = #stablehlo<comparison_type SIGNED>, comparison_direction = #stablehlo<comparison_direction LT>}> : (tensor<8x128xi32>, tensor<8x128xi32>) -> tensor<8x128xi1>
    %489 = "stablehlo.and"(%485, %488) : (tensor<8x128xi1>, tensor<8x128xi1>) -> tensor<8x128xi1>
    %490 = "stablehlo.count_leading_zeros"(%479) : (tensor<8x128xi32>) -> tensor<8x128xi32>
    %491 = "stablehlo.constant"() <{value = dense<8> : tensor<i32>}> : () -> tensor<i32>
    %492 = "stablehlo.broadcast_in_dim"(%491) <{broadcast_dimensions = array<i64>}> : (tensor<i32>) -> tensor<8x128xi32>
    %493 = "stablehlo.subtract"(%490, %492) : (tensor<8x128xi32>, tensor<8x128xi32>) -> tensor<8x128xi32>
    %494 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    %495 = "stablehlo.broadcast_in_dim"(%494) <{broadcast_dimensions = array<i64>}> : (tensor<i32>) -> tensor<8x128xi32>
    %496 = "stablehlo.select"(%489, %493, %495) : (tensor<8x128xi1>, tensor<8x128xi32>, tensor<8x128xi32>) -> tensor<8x128xi32>
    %497 = "stablehlo.constant"() <{value = dense<-2147483648> : tensor<i32>}> : () -> tensor<i32>
    %498 = "stablehlo.broadcast_in_dim"(%497) <{broadcast_dimensions = array<i64>}> : (tensor<i32>) -> tensor<8x128xi32>
    %499 = "stablehlo.and"(%476, %498) : (tensor<8x128xi32>, tensor<8x128xi32>) -> tensor<8x128xi32>
    %500 = "stablehlo.shift_left"(%479, %496) : (tensor<8x128xi32>, tensor<8x128xi32>) -> tensor<8x128xi32>
    %501 = "stablehlo.or"(%499, %500) : (tensor<8x128xi32>, tensor<8x128xi32>) -> tensor<8x128xi32>
    %502 = "stablehlo.select"(%489, %501, %476) : (tensor<8x128xi1>, tensor<8x128xi32>, tensor<8x128xi32>) -> tensor<8x128xi32>
    %503 = "stablehlo.bitcast_convert"(%502) : (tensor<8x128xi32>) -> tensor<8x128xf32>
    %504 = "stablehlo.constant"() <{value = dense<5.000000e-01> : tensor<f32>}> : () -> tensor<f32>
    %505 = "stablehlo.broadcast_in_dim"(%504) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x128xf32>
    %506 = "stablehlo.compare"(%503, %505) <{compare_type = #stablehlo<comparison_type FLOAT>, comparison_direction = #stablehlo<comparison_direction GE>}> : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xi1>
    %507 = "stablehlo.constant"() <{value = dense<1.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %508 = "stablehlo.broadcast_in_dim"(%507) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x128xf32>
    %509 = "stablehlo.select"(%482, %508, %503) : (tensor<8x128xi1>, tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %510 = "stablehlo.not"(%506) : (tensor<8x128xi1>) -> tensor<8x128xi1>
    %511 = "stablehlo.constant"() <{value = dense<0xCB000000> : tensor<f32>}> : () -> tensor<f32>
    %512 = "stablehlo.broadcast_in_dim"(%511) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x128xf32>
    %513 = "stablehlo.compare"(%509, %512) <{compare_type = #stablehlo<comparison_type FLOAT>, comparison_direction = #stablehlo<comparison_direction GT>}> : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xi1>
    %514 = "stablehlo.and"(%510, %513) : (tensor<8x128xi1>, tensor<8x128xi1>) -> tensor<8x128xi1>
    %515 = "stablehlo.constant"() <{value = dense<-5.000000e-01> : tensor<f32>}> : () -> tensor<f32>
    %516 = "stablehlo.broadcast_in_dim"(%515) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x128xf32>
    %517 = "stablehlo.select"(%514, %509, %516) : (tensor<8x128xi1>, tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %518 = "stablehlo.round_nearest_even"(%517) : (tensor<8x128xf32>) -> tensor<8x128xf32>
    %519 = "stablehlo.subtract"(%517, %518) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %520 = "stablehlo.abs"(%519) : (tensor<8x128xf32>) -> tensor<8x128xf32>
    %521 = "stablehlo.constant"() <{value = dense<1.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %522 = "stablehlo.broadcast_in_dim"(%521) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x128xf32>
    %523 = "stablehlo.subtract"(%522, %518) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %524 = "stablehlo.subtract"(%523, %519) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %525 = "stablehlo.constant"() <{value = dense<1.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %526 = "stablehlo.broadcast_in_dim"(%525) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x128xf32>
    %527 = "stablehlo.subtract"(%526, %518) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %528 = "stablehlo.subtract"(%527, %524) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %529 = "stablehlo.subtract"(%528, %519) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %530 = "stablehlo.select"(%506, %509, %524) : (tensor<8x128xi1>, tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %531 = "stablehlo.constant"() <{value = dense<4.08500311E+36> : tensor<f32>}> : () -> tensor<f32>
    %532 = "stablehlo.broadcast_in_dim"(%531) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x128xf32>
    %533 = "stablehlo.minimum"(%530, %532) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %534:2 = "func.call"(%520, %496) <{callee = @_log_f32}> : (tensor<8x128xf32>, tensor<8x128xi32>) -> (tensor<8x128xf32>, tensor<8x128xf32>)
    %535:3 = "func.call"(%533) <{callee = @_lgamma_pos_small}> : (tensor<8x128xf32>) -> (tensor<8x128xf32>, tensor<8x128xf32>, tensor<8x128xf32>)
    %536:3 = "func.call"(%533) <{callee = @_lgamma_pos_large}> : (tensor<8x128xf32>) -> (tensor<8x128xf32>, tensor<8x128xf32>, tensor<8x128xf32>)
    %537 = "stablehlo.constant"() <{value = dense<4.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %538 = "stablehlo.broadcast_in_dim"(%537) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x128xf32>
    %539 = "stablehlo.compare"(%533, %538) <{compare_type = #stablehlo<comparison_type FLOAT>, comparison_direction = #stablehlo<comparison_direction LE>}> : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xi1>
    %540 = "stablehlo.add"(%536#0, %536#1) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %541 = "stablehlo.select"(%539, %535#0, %540) : (tensor<8x128xi1>, tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %542 = "stablehlo.select"(%539, %535#1, %536#0) : (tensor<8x128xi1>, tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %543 = "stablehlo.select"(%539, %535#2, %536#1) : (tensor<8x128xi1>, tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %544 = "stablehlo.add"(%543, %534#1) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %545 = "stablehlo.multiply"(%536#2, %529) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %546 = "func.call"(%519, %534#0, %542, %544, %545) <{callee = @_lgamma_neg_reflection}> : (tensor<8x128xf32>, tensor<8x128xf32>, tensor<8x128xf32>, tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %547:2 = "func.call"(%517, %518) <{callee = @_lgamma_neg_root}> : (tensor<8x128xf32>, tensor<8x128xf32>) -> (tensor<8x128xi1>, tensor<8x128xf32>)
    %548 = "stablehlo.select"(%547#0, %547#1, %546) : (tensor<8x128xi1>, tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %549 = "stablehlo.select"(%506, %541, %548) : (tensor<8x128xi1>, tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %550 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %551 = "stablehlo.broadcast_in_dim"(%550) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x128xf32>
    %552 = "stablehlo.compare"(%549, %551) <{compare_type = #stablehlo<comparison_type FLOAT>, comparison_direction = #stablehlo<comparison_direction EQ>}> : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xi1>
    %553 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %554 = "stablehlo.broadcast_in_dim"(%553) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x128xf32>
    %555 = "stablehlo.select"(%552, %554, %549) : (tensor<8x128xi1>, tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %556 = "stablehlo.not"(%506) : (tensor<8x128xi1>) -> tensor<8x128xi1>
    %557 = "stablehlo.floor"(%509) : (tensor<8x128xf32>) -> tensor<8x128xf32>
    %558 = "stablehlo.compare"(%509, %557) <{compare_type = #stablehlo<comparison_type FLOAT>, comparison_direction = #stablehlo<comparison_direction EQ>}> : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xi1>
    %559 = "stablehlo.and"(%556, %558) : (tensor<8x128xi1>, tensor<8x128xi1>) -> tensor<8x128xi1>
    %560 = "stablehlo.or"(%482, %559) : (tensor<8x128xi1>, tensor<8x128xi1>) -> tensor<8x128xi1>
    %561 = "stablehlo.constant"() <{value = dense<4.08500311E+36> : tensor<f32>}> : () -> tensor<f32>
    %562 = "stablehlo.broadcast_in_dim"(%561) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x128xf32>
    %563 = "stablehlo.compare"(%arg63, %562) <{compare_type = #stablehlo<comparison_type FLOAT>, comparison_direction = #stablehlo<comparison_direction GT>}> : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xi1>
    %564 = "stablehlo.or"(%560, %563) : (tensor<8x128xi1>, tensor<8x128xi1>) -> tensor<8x128xi1>
    %565 = "stablehlo.constant"() <{value = dense<0x7F800000> : tensor<f32>}> : () -> tensor<f32>
    %566 = "stablehlo.broadcast_in_dim"(%565) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x128xf32>
    %567 = "stablehlo.select"(%564, %566, %555) : (tensor<8x128xi1>, tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %568 = "stablehlo.compare"(%arg63, %arg63) <{compare_type = #stablehlo<comparison_type FLOAT>, comparison_direction = #stablehlo<comparison_direction NE>}> : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xi1>
    %569 = "stablehlo.constant"() <{value = dense<0x7FC00000> : tensor<f32>}> : () -> tensor<f32>
    %570 = "stablehlo.broadcast_in_dim"(%569) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x128xf32>
    %571 = "stablehlo.select"(%568, %570, %567) : (tensor<8x128xi1>, tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    "func.return"(%571) : (tensor<8x128xf32>) -> ()
  }) : () -> ()
  "func.func"() <{function_type = (tensor<8x128xf32>, tensor<8x128xi32>) -> (tensor<8x128xf32>, tensor<8x128xf32>), sym_name = "_log_f32", sym_visibility = "private"}> ({
  ^bb0(%arg61: tensor<8x128xf32>, %arg62: tensor<8x128xi32>):
    %430 = "stablehlo.bitcast_convert"(%arg61) : (tensor<8x128xf32>) -> tensor<8x128xi32>
    %431 = "stablehlo.constant"() <{value = dense<1060439283> : tensor<i32>}> : () -> tensor<i32>
    %432 = "stablehlo.broadcast_in_dim"(%431) <{broadcast_dimensions = array<i64>}> : (tensor<i32>) -> tensor<8x128xi32>
    %433 = "stablehlo.subtract"(%430, %432) : (tensor<8x128xi32>, tensor<8x128xi32>) -> tensor<8x128xi32>
    %434 = "stablehlo.constant"() <{value = dense<23> : tensor<i32>}> : () -> tensor<i32>
    %435 = "stablehlo.broadcast_in_dim"(%434) <{broadcast_dimensions = array<i64>}> : (tensor<i32>) -> tensor<8x128xi32>
    %436 = "stablehlo.shift_right_arithmetic"(%433, %435) : (tensor<8x128xi32>, tensor<8x128xi32>) -> tensor<8x128xi32>
    %437 = "stablehlo.subtract"(%436, %arg62) : (tensor<8x128xi32>, tensor<8x128xi32>) -> tensor<8x128xi32>
    %438 = "stablehlo.convert"(%437) : (tensor<8x128xi32>) -> tensor<8x128xf32>
    %439 = "stablehlo.constant"() <{value = dense<23> : tensor<i32>}> : () -> tensor<i32>
    %440 = "stablehlo.broadcast_in_dim"(%439) <{broadcast_dimensions = array<i64>}> : (tensor<i32>) -> tensor<8x128xi32>
    %441 = "stablehlo.shift_left"(%436, %440) : (tensor<8x128xi32>, tensor<8x128xi32>) -> tensor<8x128xi32>
    %442 = "stablehlo.subtract"(%430, %441) : (tensor<8x128xi32>, tensor<8x128xi32>) -> tensor<8x128xi32>
    %443 = "stablehlo.bitcast_convert"(%442) : (tensor<8x128xi32>) -> tensor<8x128xf32>
    %444 = "stablehlo.constant"() <{value = dense<1.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %445 = "stablehlo.broadcast_in_dim"(%444) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x128xf32>
    %446 = "stablehlo.subtract"(%443, %445) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %447 = "stablehlo.multiply"(%446, %446) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %448 = "stablehlo.constant"() <{value = dense<5.000000e-01> : tensor<f32>}> : () -> tensor<f32>
    %449 = "stablehlo.broadcast_in_dim"(%448) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x128xf32>
    %450 = "stablehlo.multiply"(%449, %447) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %451 = "stablehlo.subtract"(%446, %450) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %452 = "stablehlo.multiply"(%447, %446) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %453 = "stablehlo.constant"() <{value = dense<0.333333343> : tensor<f32>}> : () -> tensor<f32>
    %454 = "stablehlo.constant"() <{value = dense<-0.249999896> : tensor<f32>}> : () -> tensor<f32>
    %455 = "stablehlo.constant"() <{value = dense<0.199999928> : tensor<f32>}> : () -> tensor<f32>
    %456 = "stablehlo.constant"() <{value = dense<-0.166680068> : tensor<f32>}> : () -> tensor<f32>
    %457 = "stablehlo.constant"() <{value = dense<0.1428743> : tensor<f32>}> : () -> tensor<f32>
    %458 = "stablehlo.constant"() <{value = dense<-0.124513313> : tensor<f32>}> : () -> tensor<f32>
    %459 = "stablehlo.constant"() <{value = dense<0.110219181> : tensor<f32>}> : () -> tensor<f32>
    %460 = "stablehlo.constant"() <{value = dense<-0.106258489> : tensor<f32>}> : () -> tensor<f32>
    %461 = "stablehlo.constant"() <{value = dense<0.106187068> : tensor<f32>}> : () -> tensor<f32>
    %462 = "stablehlo.constant"() <{value = dense<-0.0635454952> : tensor<f32>}> : () -> tensor<f32>
    %463 = "func.call"(%446, %453, %454, %455, %456, %457, %458, %459, %460, %461, %462) <{callee = @_horner}> : (tensor<8x128xf32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>) -> tensor<8x128xf32>
    %464 = "stablehlo.multiply"(%452, %463) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %465 = "stablehlo.add"(%451, %464) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %466 = "stablehlo.constant"() <{value = dense<0.693115234> : tensor<f32>}> : () -> tensor<f32>
    %467 = "stablehlo.broadcast_in_dim"(%466) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x128xf32>
    %468 = "stablehlo.multiply"(%438, %467) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %469 = "stablehlo.constant"() <{value = dense<3.19461833E-5> : tensor<f32>}> : () -> tensor<f32>
    %470 = "stablehlo.broadcast_in_dim"(%469) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x128xf32>
    %471 = "stablehlo.multiply"(%438, %470) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %472 = "stablehlo.add"(%465, %471) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %473 = "stablehlo.add"(%468, %472) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %474 = "stablehlo.subtract"(%468, %473) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %475 = "stablehlo.add"(%474, %472) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    "func.return"(%473, %475) : (tensor<8x128xf32>, tensor<8x128xf32>) -> ()
  }) : () -> ()
  "func.func"() <{function_type = (tensor<8x128xf32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>) -> tensor<8x128xf32>, sym_name = "_horner", sym_visibility = "private"}> ({
  ^bb0(%arg50: tensor<8x128xf32>, %arg51: tensor<f32>, %arg52: tensor<f32>, %arg53: tensor<f32>, %arg54: tensor<f32>, %arg55: tensor<f32>, %arg56: tensor<f32>, %arg57: tensor<f32>, %arg58: tensor<f32>, %arg59: tensor<f32>, %arg60: tensor<f32>):
    %392 = "stablehlo.convert"(%arg60) : (tensor<f32>) -> tensor<f32>
    %393 = "stablehlo.broadcast_in_dim"(%392) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x128xf32>
    %394 = "stablehlo.multiply"(%393, %arg50) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %395 = "stablehlo.convert"(%arg59) : (tensor<f32>) -> tensor<f32>
    %396 = "stablehlo.broadcast_in_dim"(%395) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x128xf32>
    %397 = "stablehlo.add"(%394, %396) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %398 = "stablehlo.multiply"(%397, %arg50) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %399 = "stablehlo.convert"(%arg58) : (tensor<f32>) -> tensor<f32>
    %400 = "stablehlo.broadcast_in_dim"(%399) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x128xf32>
    %401 = "stablehlo.add"(%398, %400) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %402 = "stablehlo.multiply"(%401, %arg50) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %403 = "stablehlo.convert"(%arg57) : (tensor<f32>) -> tensor<f32>
    %404 = "stablehlo.broadcast_in_dim"(%403) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x128xf32>
    %405 = "stablehlo.add"(%402, %404) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %406 = "stablehlo.multiply"(%405, %arg50) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %407 = "stablehlo.convert"(%arg56) : (tensor<f32>) -> tensor<f32>
    %408 = "stablehlo.broadcast_in_dim"(%407) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x128xf32>
    %409 = "stablehlo.add"(%406, %408) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %410 = "stablehlo.multiply"(%409, %arg50) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %411 = "stablehlo.convert"(%arg55) : (tensor<f32>) -> tensor<f32>
    %412 = "stablehlo.broadcast_in_dim"(%411) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x128xf32>
    %413 = "stablehlo.add"(%410, %412) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %414 = "stablehlo.multiply"(%413, %arg50) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %415 = "stablehlo.convert"(%arg54) : (tensor<f32>) -> tensor<f32>
    %416 = "stablehlo.broadcast_in_dim"(%415) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x128xf32>
    %417 = "stablehlo.add"(%414, %416) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %418 = "stablehlo.multiply"(%417, %arg50) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %419 = "stablehlo.convert"(%arg53) : (tensor<f32>) -> tensor<f32>
    %420 = "stablehlo.broadcast_in_dim"(%419) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x128xf32>
    %421 = "stablehlo.add"(%418, %420) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %422 = "stablehlo.multiply"(%421, %arg50) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %423 = "stablehlo.convert"(%arg52) : (tensor<f32>) -> tensor<f32>
    %424 = "stablehlo.broadcast_in_dim"(%423) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x128xf32>
    %425 = "stablehlo.add"(%422, %424) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %426 = "stablehlo.multiply"(%425, %arg50) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %427 = "stablehlo.convert"(%arg51) : (tensor<f32>) -> tensor<f32>
    %428 = "stablehlo.broadcast_in_dim"(%427) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x128xf32>
    %429 = "stablehlo.add"(%426, %428) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    "func.return"(%429) : (tensor<8x128xf32>) -> ()
  }) : () -> ()
  "func.func"() <{function_type = (tensor<8x128xf32>) -> (tensor<8x128xf32>, tensor<8x128xf32>, tensor<8x128xf32>), sym_name = "_lgamma_pos_small", sym_visibility = "private"}> ({
  ^bb0(%arg49: tensor<8x128xf32>):
    %284 = "stablehlo.constant"() <{value = dense<1.500000e+00> : tensor<f32>}> : () -> tensor<f32>
    %285 = "stablehlo.broadcast_in_dim"(%284) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x128xf32>
    %286 = "stablehlo.compare"(%arg49, %285) <{compare_type = #stablehlo<comparison_type FLOAT>, comparison_direction = #stablehlo<comparison_direction GT>}> : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xi1>
    %287 = "stablehlo.constant"() <{value = dense<1.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %288 = "stablehlo.broadcast_in_dim"(%287) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x128xf32>
    %289 = "stablehlo.subtract"(%arg49, %288) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %290 = "stablehlo.constant"() <{value = dense<1.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %291 = "stablehlo.broadcast_in_dim"(%290) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x128xf32>
    %292 = "stablehlo.subtract"(%289, %291) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %293 = "stablehlo.constant"() <{value = dense<1.750000e+00> : tensor<f32>}> : () -> tensor<f32>
    %294 = "stablehlo.broadcast_in_dim"(%293) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x128xf32>
    %295 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %296 = "stablehlo.broadcast_in_dim"(%295) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x128xf32>
    %297 = "stablehlo.select"(%286, %294, %296) : (tensor<8x128xi1>, tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %298 = "stablehlo.subtract"(%289, %297) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %299 = "stablehlo.constant"() <{value = dense<0.362068325> : tensor<f32>}> : () -> tensor<f32>
    %300 = "stablehlo.broadcast_in_dim"(%299) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x128xf32>
    %301 = "stablehlo.constant"() <{value = dense<0.577215672> : tensor<f32>}> : () -> tensor<f32>
    %302 = "stablehlo.broadcast_in_dim"(%301) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x128xf32>
    %303 = "stablehlo.select"(%286, %300, %302) : (tensor<8x128xi1>, tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %304 = "stablehlo.constant"() <{value = dense<-0.0657293424> : tensor<f32>}> : () -> tensor<f32>
    %305 = "stablehlo.broadcast_in_dim"(%304) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x128xf32>
    %306 = "stablehlo.constant"() <{value = dense<-0.245251313> : tensor<f32>}> : () -> tensor<f32>
    %307 = "stablehlo.broadcast_in_dim"(%306) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x128xf32>
    %308 = "stablehlo.select"(%286, %305, %307) : (tensor<8x128xi1>, tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %309 = "stablehlo.constant"() <{value = dense<0.0160308518> : tensor<f32>}> : () -> tensor<f32>
    %310 = "stablehlo.broadcast_in_dim"(%309) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x128xf32>
    %311 = "stablehlo.constant"() <{value = dense<0.155433342> : tensor<f32>}> : () -> tensor<f32>
    %312 = "stablehlo.broadcast_in_dim"(%311) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x128xf32>
    %313 = "stablehlo.select"(%286, %310, %312) : (tensor<8x128xi1>, tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %314 = "stablehlo.constant"() <{value = dense<-0.00441958429> : tensor<f32>}> : () -> tensor<f32>
    %315 = "stablehlo.broadcast_in_dim"(%314) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x128xf32>
    %316 = "stablehlo.constant"() <{value = dense<-0.115152992> : tensor<f32>}> : () -> tensor<f32>
    %317 = "stablehlo.broadcast_in_dim"(%316) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x128xf32>
    %318 = "stablehlo.select"(%286, %315, %317) : (tensor<8x128xi1>, tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %319 = "stablehlo.constant"() <{value = dense<0.00130368094> : tensor<f32>}> : () -> tensor<f32>
    %320 = "stablehlo.broadcast_in_dim"(%319) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x128xf32>
    %321 = "stablehlo.constant"() <{value = dense<0.0922760441> : tensor<f32>}> : () -> tensor<f32>
    %322 = "stablehlo.broadcast_in_dim"(%321) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x128xf32>
    %323 = "stablehlo.select"(%286, %320, %322) : (tensor<8x128xi1>, tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %324 = "stablehlo.constant"() <{value = dense<-4.00087971E-4> : tensor<f32>}> : () -> tensor<f32>
    %325 = "stablehlo.broadcast_in_dim"(%324) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x128xf32>
    %326 = "stablehlo.constant"() <{value = dense<-0.0771135687> : tensor<f32>}> : () -> tensor<f32>
    %327 = "stablehlo.broadcast_in_dim"(%326) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x128xf32>
    %328 = "stablehlo.select"(%286, %325, %327) : (tensor<8x128xi1>, tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %329 = "stablehlo.constant"() <{value = dense<1.24877915E-4> : tensor<f32>}> : () -> tensor<f32>
    %330 = "stablehlo.broadcast_in_dim"(%329) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x128xf32>
    %331 = "stablehlo.constant"() <{value = dense<0.0660817325> : tensor<f32>}> : () -> tensor<f32>
    %332 = "stablehlo.broadcast_in_dim"(%331) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x128xf32>
    %333 = "stablehlo.select"(%286, %330, %332) : (tensor<8x128xi1>, tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %334 = "stablehlo.constant"() <{value = dense<-4.18991549E-5> : tensor<f32>}> : () -> tensor<f32>
    %335 = "stablehlo.broadcast_in_dim"(%334) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x128xf32>
    %336 = "stablehlo.constant"() <{value = dense<-0.061489731> : tensor<f32>}> : () -> tensor<f32>
    %337 = "stablehlo.broadcast_in_dim"(%336) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x128xf32>
    %338 = "stablehlo.select"(%286, %335, %337) : (tensor<8x128xi1>, tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %339 = "stablehlo.constant"() <{value = dense<1.5541731E-5> : tensor<f32>}> : () -> tensor<f32>
    %340 = "stablehlo.broadcast_in_dim"(%339) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x128xf32>
    %341 = "stablehlo.constant"() <{value = dense<0.0583322793> : tensor<f32>}> : () -> tensor<f32>
    %342 = "stablehlo.broadcast_in_dim"(%341) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x128xf32>
    %343 = "stablehlo.select"(%286, %340, %342) : (tensor<8x128xi1>, tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %344 = "stablehlo.constant"() <{value = dense<-3.44545674E-6> : tensor<f32>}> : () -> tensor<f32>
    %345 = "stablehlo.broadcast_in_dim"(%344) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x128xf32>
    %346 = "stablehlo.constant"() <{value = dense<-3.065680e-02> : tensor<f32>}> : () -> tensor<f32>
    %347 = "stablehlo.broadcast_in_dim"(%346) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x128xf32>
    %348 = "stablehlo.select"(%286, %345, %347) : (tensor<8x128xi1>, tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %349 = "stablehlo.constant"() <{value = dense<2.14668859E-7> : tensor<f32>}> : () -> tensor<f32>
    %350 = "stablehlo.broadcast_in_dim"(%349) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x128xf32>
    %351 = "stablehlo.constant"() <{value = dense<0.0167537015> : tensor<f32>}> : () -> tensor<f32>
    %352 = "stablehlo.broadcast_in_dim"(%351) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x128xf32>
    %353 = "stablehlo.select"(%286, %350, %352) : (tensor<8x128xi1>, tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %354 = "stablehlo.constant"() <{value = dense<-9.51253639E-7> : tensor<f32>}> : () -> tensor<f32>
    %355 = "stablehlo.broadcast_in_dim"(%354) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x128xf32>
    %356 = "stablehlo.constant"() <{value = dense<-0.0866426677> : tensor<f32>}> : () -> tensor<f32>
    %357 = "stablehlo.broadcast_in_dim"(%356) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x128xf32>
    %358 = "stablehlo.select"(%286, %355, %357) : (tensor<8x128xi1>, tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %359 = "stablehlo.constant"() <{value = dense<5.093690e-07> : tensor<f32>}> : () -> tensor<f32>
    %360 = "stablehlo.broadcast_in_dim"(%359) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x128xf32>
    %361 = "stablehlo.constant"() <{value = dense<0.0945988297> : tensor<f32>}> : () -> tensor<f32>
    %362 = "stablehlo.broadcast_in_dim"(%361) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x128xf32>
    %363 = "stablehlo.select"(%286, %360, %362) : (tensor<8x128xi1>, tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %364 = "func.call"(%298, %303, %308, %313, %318, %323, %328, %333, %338, %343, %348, %353, %358, %363) <{callee = @_horner_0}> : (tensor<8x128xf32>, tensor<8x128xf32>, tensor<8x128xf32>, tensor<8x128xf32>, tensor<8x128xf32>, tensor<8x128xf32>, tensor<8x128xf32>, tensor<8x128xf32>, tensor<8x128xf32>, tensor<8x128xf32>, tensor<8x128xf32>, tensor<8x128xf32>, tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %365 = "stablehlo.bitcast_convert"(%289) : (tensor<8x128xf32>) -> tensor<8x128xi32>
    %366 = "stablehlo.constant"() <{value = dense<-4096> : tensor<i32>}> : () -> tensor<i32>
    %367 = "stablehlo.broadcast_in_dim"(%366) <{broadcast_dimensions = array<i64>}> : (tensor<i32>) -> tensor<8x128xi32>
    %368 = "stablehlo.and"(%365, %367) : (tensor<8x128xi32>, tensor<8x128xi32>) -> tensor<8x128xi32>
    %369 = "stablehlo.bitcast_convert"(%368) : (tensor<8x128xi32>) -> tensor<8x128xf32>
    %370 = "stablehlo.subtract"(%289, %369) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %371 = "stablehlo.bitcast_convert"(%292) : (tensor<8x128xf32>) -> tensor<8x128xi32>
    %372 = "stablehlo.constant"() <{value = dense<-4096> : tensor<i32>}> : () -> tensor<i32>
    %373 = "stablehlo.broadcast_in_dim"(%372) <{broadcast_dimensions = array<i64>}> : (tensor<i32>) -> tensor<8x128xi32>
    %374 = "stablehlo.and"(%371, %373) : (tensor<8x128xi32>, tensor<8x128xi32>) -> tensor<8x128xi32>
    %375 = "stablehlo.bitcast_convert"(%374) : (tensor<8x128xi32>) -> tensor<8x128xf32>
    %376 = "stablehlo.subtract"(%292, %375) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %377 = "stablehlo.multiply"(%369, %375) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %378 = "stablehlo.multiply"(%370, %292) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %379 = "stablehlo.multiply"(%369, %376) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %380 = "stablehlo.add"(%378, %379) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %381 = "stablehlo.bitcast_convert"(%364) : (tensor<8x128xf32>) -> tensor<8x128xi32>
    %382 = "stablehlo.constant"() <{value = dense<-4096> : tensor<i32>}> : () -> tensor<i32>
    %383 = "stablehlo.broadcast_in_dim"(%382) <{broadcast_dimensions = array<i64>}> : (tensor<i32>) -> tensor<8x128xi32>
    %384 = "stablehlo.and"(%381, %383) : (tensor<8x128xi32>, tensor<8x128xi32>) -> tensor<8x128xi32>
    %385 = "stablehlo.bitcast_convert"(%384) : (tensor<8x128xi32>) -> tensor<8x128xf32>
    %386 = "stablehlo.subtract"(%364, %385) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %387 = "stablehlo.multiply"(%377, %385) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %388 = "stablehlo.multiply"(%380, %364) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %389 = "stablehlo.multiply"(%377, %386) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %390 = "stablehlo.add"(%388, %389) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %391 = "stablehlo.add"(%387, %390) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    "func.return"(%391, %387, %390) : (tensor<8x128xf32>, tensor<8x128xf32>, tensor<8x128xf32>) -> ()
  }) : () -> ()
  "func.func"() <{function_type = (tensor<8x128xf32>, tensor<8x128xf32>, tensor<8x128xf32>, tensor<8x128xf32>, tensor<8x128xf32>, tensor<8x128xf32>, tensor<8x128xf32>, tensor<8x128xf32>, tensor<8x128xf32>, tensor<8x128xf32>, tensor<8x128xf32>, tensor<8x128xf32>, tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>, sym_name = "_horner_0", sym_visibility = "private"}> ({
  ^bb0(%arg35: tensor<8x128xf32>, %arg36: tensor<8x128xf32>, %arg37: tensor<8x128xf32>, %arg38: tensor<8x128xf32>, %arg39: tensor<8x128xf32>, %arg40: tensor<8x128xf32>, %arg41: tensor<8x128xf32>, %arg42: tensor<8x128xf32>, %arg43: tensor<8x128xf32>, %arg44: tensor<8x128xf32>, %arg45: tensor<8x128xf32>, %arg46: tensor<8x128xf32>, %arg47: tensor<8x128xf32>, %arg48: tensor<8x128xf32>):
    %260 = "stablehlo.multiply"(%arg48, %arg35) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %261 = "stablehlo.add"(%260, %arg47) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %262 = "stablehlo.multiply"(%261, %arg35) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %263 = "stablehlo.add"(%262, %arg46) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %264 = "stablehlo.multiply"(%263, %arg35) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %265 = "stablehlo.add"(%264, %arg45) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %266 = "stablehlo.multiply"(%265, %arg35) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %267 = "stablehlo.add"(%266, %arg44) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %268 = "stablehlo.multiply"(%267, %arg35) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %269 = "stablehlo.add"(%268, %arg43) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %270 = "stablehlo.multiply"(%269, %arg35) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %271 = "stablehlo.add"(%270, %arg42) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %272 = "stablehlo.multiply"(%271, %arg35) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %273 = "stablehlo.add"(%272, %arg41) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %274 = "stablehlo.multiply"(%273, %arg35) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %275 = "stablehlo.add"(%274, %arg40) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %276 = "stablehlo.multiply"(%275, %arg35) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %277 = "stablehlo.add"(%276, %arg39) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %278 = "stablehlo.multiply"(%277, %arg35) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %279 = "stablehlo.add"(%278, %arg38) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %280 = "stablehlo.multiply"(%279, %arg35) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %281 = "stablehlo.add"(%280, %arg37) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %282 = "stablehlo.multiply"(%281, %arg35) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %283 = "stablehlo.add"(%282, %arg36) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    "func.return"(%283) : (tensor<8x128xf32>) -> ()
  }) : () -> ()
  "func.func"() <{function_type = (tensor<8x128xf32>) -> (tensor<8x128xf32>, tensor<8x128xf32>, tensor<8x128xf32>), sym_name = "_lgamma_pos_large", sym_visibility = "private"}> ({
  ^bb0(%arg34: tensor<8x128xf32>):
    %217:2 = "func.call"(%arg34) <{callee = @_log_f32_1}> : (tensor<8x128xf32>) -> (tensor<8x128xf32>, tensor<8x128xf32>)
    %218 = "stablehlo.bitcast_convert"(%217#0) : (tensor<8x128xf32>) -> tensor<8x128xi32>
    %219 = "stablehlo.constant"() <{value = dense<-4096> : tensor<i32>}> : () -> tensor<i32>
    %220 = "stablehlo.broadcast_in_dim"(%219) <{broadcast_dimensions = array<i64>}> : (tensor<i32>) -> tensor<8x128xi32>
    %221 = "stablehlo.and"(%218, %220) : (tensor<8x128xi32>, tensor<8x128xi32>) -> tensor<8x128xi32>
    %222 = "stablehlo.bitcast_convert"(%221) : (tensor<8x128xi32>) -> tensor<8x128xf32>
    %223 = "stablehlo.subtract"(%217#0, %222) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %224 = "stablehlo.add"(%223, %217#1) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %225 = "stablehlo.constant"() <{value = dense<5.000000e-01> : tensor<f32>}> : () -> tensor<f32>
    %226 = "stablehlo.broadcast_in_dim"(%225) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x128xf32>
    %227 = "stablehlo.subtract"(%arg34, %226) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %228 = "stablehlo.bitcast_convert"(%227) : (tensor<8x128xf32>) -> tensor<8x128xi32>
    %229 = "stablehlo.constant"() <{value = dense<-4096> : tensor<i32>}> : () -> tensor<i32>
    %230 = "stablehlo.broadcast_in_dim"(%229) <{broadcast_dimensions = array<i64>}> : (tensor<i32>) -> tensor<8x128xi32>
    %231 = "stablehlo.and"(%228, %230) : (tensor<8x128xi32>, tensor<8x128xi32>) -> tensor<8x128xi32>
    %232 = "stablehlo.bitcast_convert"(%231) : (tensor<8x128xi32>) -> tensor<8x128xf32>
    %233 = "stablehlo.subtract"(%227, %232) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %234 = "stablehlo.constant"() <{value = dense<1.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %235 = "stablehlo.broadcast_in_dim"(%234) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x128xf32>
    %236 = "stablehlo.subtract"(%222, %235) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %237 = "stablehlo.multiply"(%232, %236) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %238 = "stablehlo.multiply"(%233, %236) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %239 = "stablehlo.multiply"(%227, %224) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %240 = "stablehlo.add"(%238, %239) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %241 = "stablehlo.constant"() <{value = dense<1.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %242 = "stablehlo.broadcast_in_dim"(%241) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x128xf32>
    %243 = "stablehlo.divide"(%242, %arg34) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %244 = "stablehlo.multiply"(%243, %243) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %245 = "stablehlo.constant"() <{value = dense<0.0833333358> : tensor<f32>}> : () -> tensor<f32>
    %246 = "stablehlo.constant"() <{value = dense<-0.00277777785> : tensor<f32>}> : () -> tensor<f32>
    %247 = "stablehlo.constant"() <{value = dense<7.93650805E-4> : tensor<f32>}> : () -> tensor<f32>
    %248 = "stablehlo.constant"() <{value = dense<-5.95238118E-4> : tensor<f32>}> : () -> tensor<f32>
    %249 = "stablehlo.constant"() <{value = dense<8.41750822E-4> : tensor<f32>}> : () -> tensor<f32>
    %250 = "func.call"(%244, %245, %246, %247, %248, %249) <{callee = @_horner_2}> : (tensor<8x128xf32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>) -> tensor<8x128xf32>
    %251 = "stablehlo.constant"() <{value = dense<0.418938518> : tensor<f32>}> : () -> tensor<f32>
    %252 = "stablehlo.broadcast_in_dim"(%251) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x128xf32>
    %253 = "stablehlo.add"(%240, %252) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %254 = "stablehlo.multiply"(%243, %250) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %255 = "stablehlo.add"(%253, %254) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %256 = "stablehlo.constant"() <{value = dense<5.000000e-01> : tensor<f32>}> : () -> tensor<f32>
    %257 = "stablehlo.broadcast_in_dim"(%256) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x128xf32>
    %258 = "stablehlo.multiply"(%257, %243) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %259 = "stablehlo.subtract"(%217#0, %258) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    "func.return"(%237, %255, %259) : (tensor<8x128xf32>, tensor<8x128xf32>, tensor<8x128xf32>) -> ()
  }) : () -> ()
  "func.func"() <{function_type = (tensor<8x128xf32>) -> (tensor<8x128xf32>, tensor<8x128xf32>), sym_name = "_log_f32_1", sym_visibility = "private"}> ({
  ^bb0(%arg33: tensor<8x128xf32>):
    %169 = "stablehlo.bitcast_convert"(%arg33) : (tensor<8x128xf32>) -> tensor<8x128xi32>
    %170 = "stablehlo.constant"() <{value = dense<1060439283> : tensor<i32>}> : () -> tensor<i32>
    %171 = "stablehlo.broadcast_in_dim"(%170) <{broadcast_dimensions = array<i64>}> : (tensor<i32>) -> tensor<8x128xi32>
    %172 = "stablehlo.subtract"(%169, %171) : (tensor<8x128xi32>, tensor<8x128xi32>) -> tensor<8x128xi32>
    %173 = "stablehlo.constant"() <{value = dense<23> : tensor<i32>}> : () -> tensor<i32>
    %174 = "stablehlo.broadcast_in_dim"(%173) <{broadcast_dimensions = array<i64>}> : (tensor<i32>) -> tensor<8x128xi32>
    %175 = "stablehlo.shift_right_arithmetic"(%172, %174) : (tensor<8x128xi32>, tensor<8x128xi32>) -> tensor<8x128xi32>
    %176 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    %177 = "stablehlo.broadcast_in_dim"(%176) <{broadcast_dimensions = array<i64>}> : (tensor<i32>) -> tensor<8x128xi32>
    %178 = "stablehlo.subtract"(%175, %177) : (tensor<8x128xi32>, tensor<8x128xi32>) -> tensor<8x128xi32>
    %179 = "stablehlo.convert"(%178) : (tensor<8x128xi32>) -> tensor<8x128xf32>
    %180 = "stablehlo.constant"() <{value = dense<23> : tensor<i32>}> : () -> tensor<i32>
    %181 = "stablehlo.broadcast_in_dim"(%180) <{broadcast_dimensions = array<i64>}> : (tensor<i32>) -> tensor<8x128xi32>
    %182 = "stablehlo.shift_left"(%175, %181) : (tensor<8x128xi32>, tensor<8x128xi32>) -> tensor<8x128xi32>
    %183 = "stablehlo.subtract"(%169, %182) : (tensor<8x128xi32>, tensor<8x128xi32>) -> tensor<8x128xi32>
    %184 = "stablehlo.bitcast_convert"(%183) : (tensor<8x128xi32>) -> tensor<8x128xf32>
    %185 = "stablehlo.constant"() <{value = dense<1.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %186 = "stablehlo.broadcast_in_dim"(%185) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x128xf32>
    %187 = "stablehlo.subtract"(%184, %186) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %188 = "stablehlo.multiply"(%187, %187) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %189 = "stablehlo.constant"() <{value = dense<5.000000e-01> : tensor<f32>}> : () -> tensor<f32>
    %190 = "stablehlo.broadcast_in_dim"(%189) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x128xf32>
    %191 = "stablehlo.multiply"(%190, %188) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %192 = "stablehlo.subtract"(%187, %191) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %193 = "stablehlo.multiply"(%188, %187) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %194 = "stablehlo.constant"() <{value = dense<0.333333343> : tensor<f32>}> : () -> tensor<f32>
    %195 = "stablehlo.constant"() <{value = dense<-0.249999896> : tensor<f32>}> : () -> tensor<f32>
    %196 = "stablehlo.constant"() <{value = dense<0.199999928> : tensor<f32>}> : () -> tensor<f32>
    %197 = "stablehlo.constant"() <{value = dense<-0.166680068> : tensor<f32>}> : () -> tensor<f32>
    %198 = "stablehlo.constant"() <{value = dense<0.1428743> : tensor<f32>}> : () -> tensor<f32>
    %199 = "stablehlo.constant"() <{value = dense<-0.124513313> : tensor<f32>}> : () -> tensor<f32>
    %200 = "stablehlo.constant"() <{value = dense<0.110219181> : tensor<f32>}> : () -> tensor<f32>
    %201 = "stablehlo.constant"() <{value = dense<-0.106258489> : tensor<f32>}> : () -> tensor<f32>
    %202 = "stablehlo.constant"() <{value = dense<0.106187068> : tensor<f32>}> : () -> tensor<f32>
    %203 = "stablehlo.constant"() <{value = dense<-0.0635454952> : tensor<f32>}> : () -> tensor<f32>
    %204 = "func.call"(%187, %194, %195, %196, %197, %198, %199, %200, %201, %202, %203) <{callee = @_horner}> : (tensor<8x128xf32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>) -> tensor<8x128xf32>
    %205 = "stablehlo.multiply"(%193, %204) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %206 = "stablehlo.add"(%192, %205) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %207 = "stablehlo.constant"() <{value = dense<0.693115234> : tensor<f32>}> : () -> tensor<f32>
    %208 = "stablehlo.broadcast_in_dim"(%207) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x128xf32>
    %209 = "stablehlo.multiply"(%179, %208) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %210 = "stablehlo.constant"() <{value = dense<3.19461833E-5> : tensor<f32>}> : () -> tensor<f32>
    %211 = "stablehlo.broadcast_in_dim"(%210) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x128xf32>
    %212 = "stablehlo.multiply"(%179, %211) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %213 = "stablehlo.add"(%206, %212) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %214 = "stablehlo.add"(%209, %213) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %215 = "stablehlo.subtract"(%209, %214) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %216 = "stablehlo.add"(%215, %213) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    "func.return"(%214, %216) : (tensor<8x128xf32>, tensor<8x128xf32>) -> ()
  }) : () -> ()
  "func.func"() <{function_type = (tensor<8x128xf32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>) -> tensor<8x128xf32>, sym_name = "_horner_2", sym_visibility = "private"}> ({
  ^bb0(%arg27: tensor<8x128xf32>, %arg28: tensor<f32>, %arg29: tensor<f32>, %arg30: tensor<f32>, %arg31: tensor<f32>, %arg32: tensor<f32>):
    %151 = "stablehlo.convert"(%arg32) : (tensor<f32>) -> tensor<f32>
    %152 = "stablehlo.broadcast_in_dim"(%151) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x128xf32>
    %153 = "stablehlo.multiply"(%152, %arg27) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %154 = "stablehlo.convert"(%arg31) : (tensor<f32>) -> tensor<f32>
    %155 = "stablehlo.broadcast_in_dim"(%154) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x128xf32>
    %156 = "stablehlo.add"(%153, %155) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %157 = "stablehlo.multiply"(%156, %arg27) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %158 = "stablehlo.convert"(%arg30) : (tensor<f32>) -> tensor<f32>
    %159 = "stablehlo.broadcast_in_dim"(%158) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x128xf32>
    %160 = "stablehlo.add"(%157, %159) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %161 = "stablehlo.multiply"(%160, %arg27) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %162 = "stablehlo.convert"(%arg29) : (tensor<f32>) -> tensor<f32>
    %163 = "stablehlo.broadcast_in_dim"(%162) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x128xf32>
    %164 = "stablehlo.add"(%161, %163) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %165 = "stablehlo.multiply"(%164, %arg27) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %166 = "stablehlo.convert"(%arg28) : (tensor<f32>) -> tensor<f32>
    %167 = "stablehlo.broadcast_in_dim"(%166) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x128xf32>
    %168 = "stablehlo.add"(%165, %167) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    "func.return"(%168) : (tensor<8x128xf32>) -> ()
  }) : () -> ()
  "func.func"() <{function_type = (tensor<8x128xf32>, tensor<8x128xf32>, tensor<8x128xf32>, tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>, sym_name = "_lgamma_neg_reflection", sym_visibility = "private"}> ({
  ^bb0(%arg22: tensor<8x128xf32>, %arg23: tensor<8x128xf32>, %arg24: tensor<8x128xf32>, %arg25: tensor<8x128xf32>, %arg26: tensor<8x128xf32>):
    %136 = "stablehlo.multiply"(%arg22, %arg22) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %137 = "stablehlo.constant"() <{value = dense<-1.64493406> : tensor<f32>}> : () -> tensor<f32>
    %138 = "stablehlo.constant"() <{value = dense<-0.541160762> : tensor<f32>}> : () -> tensor<f32>
    %139 = "stablehlo.constant"() <{value = dense<-0.339168698> : tensor<f32>}> : () -> tensor<f32>
    %140 = "stablehlo.constant"() <{value = dense<-0.24974528> : tensor<f32>}> : () -> tensor<f32>
    %141 = "stablehlo.constant"() <{value = dense<-0.214173421> : tensor<f32>}> : () -> tensor<f32>
    %142 = "stablehlo.constant"() <{value = dense<-0.0905559584> : tensor<f32>}> : () -> tensor<f32>
    %143 = "stablehlo.constant"() <{value = dense<-0.332585573> : tensor<f32>}> : () -> tensor<f32>
    %144 = "func.call"(%136, %137, %138, %139, %140, %141, %142, %143) <{callee = @_horner_3}> : (tensor<8x128xf32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>) -> tensor<8x128xf32>
    %145 = "stablehlo.multiply"(%136, %144) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %146 = "stablehlo.add"(%arg23, %arg24) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %147 = "stablehlo.add"(%145, %arg26) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %148 = "stablehlo.add"(%arg25, %147) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %149 = "stablehlo.add"(%146, %148) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %150 = "stablehlo.negate"(%149) : (tensor<8x128xf32>) -> tensor<8x128xf32>
    "func.return"(%150) : (tensor<8x128xf32>) -> ()
  }) : () -> ()
  "func.func"() <{function_type = (tensor<8x128xf32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>) -> tensor<8x128xf32>, sym_name = "_horner_3", sym_visibility = "private"}> ({
  ^bb0(%arg14: tensor<8x128xf32>, %arg15: tensor<f32>, %arg16: tensor<f32>, %arg17: tensor<f32>, %arg18: tensor<f32>, %arg19: tensor<f32>, %arg20: tensor<f32>, %arg21: tensor<f32>):
    %110 = "stablehlo.convert"(%arg21) : (tensor<f32>) -> tensor<f32>
    %111 = "stablehlo.broadcast_in_dim"(%110) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x128xf32>
    %112 = "stablehlo.multiply"(%111, %arg14) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %113 = "stablehlo.convert"(%arg20) : (tensor<f32>) -> tensor<f32>
    %114 = "stablehlo.broadcast_in_dim"(%113) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x128xf32>
    %115 = "stablehlo.add"(%112, %114) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %116 = "stablehlo.multiply"(%115, %arg14) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %117 = "stablehlo.convert"(%arg19) : (tensor<f32>) -> tensor<f32>
    %118 = "stablehlo.broadcast_in_dim"(%117) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x128xf32>
    %119 = "stablehlo.add"(%116, %118) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %120 = "stablehlo.multiply"(%119, %arg14) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %121 = "stablehlo.convert"(%arg18) : (tensor<f32>) -> tensor<f32>
    %122 = "stablehlo.broadcast_in_dim"(%121) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x128xf32>
    %123 = "stablehlo.add"(%120, %122) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %124 = "stablehlo.multiply"(%123, %arg14) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %125 = "stablehlo.convert"(%arg17) : (tensor<f32>) -> tensor<f32>
    %126 = "stablehlo.broadcast_in_dim"(%125) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x128xf32>
    %127 = "stablehlo.add"(%124, %126) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %128 = "stablehlo.multiply"(%127, %arg14) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %129 = "stablehlo.convert"(%arg16) : (tensor<f32>) -> tensor<f32>
    %130 = "stablehlo.broadcast_in_dim"(%129) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x128xf32>
    %131 = "stablehlo.add"(%128, %130) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %132 = "stablehlo.multiply"(%131, %arg14) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %133 = "stablehlo.convert"(%arg15) : (tensor<f32>) -> tensor<f32>
    %134 = "stablehlo.broadcast_in_dim"(%133) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x128xf32>
    %135 = "stablehlo.add"(%132, %134) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    "func.return"(%135) : (tensor<8x128xf32>) -> ()
  }) : () -> ()
  "func.func"() <{function_type = (tensor<8x128xf32>, tensor<8x128xf32>) -> (tensor<8x128xi1>, tensor<8x128xf32>), sym_name = "_lgamma_neg_root", sym_visibility = "private"}> ({
  ^bb0(%arg12: tensor<8x128xf32>, %arg13: tensor<8x128xf32>):
    %20 = "stablehlo.constant"() <{value = dense<[-0.457024753, 1.000000e+00, -0.143580884, 0.252317339, -0.0393618383, 0.044705715, -0.00821816828, 0.00845535938, -0.00138529448, 0.00139251992, -1.98333408E-4, 1.98492111E-4, -2.48002707E-5, 2.48029046E-5, -2.75571483E-6, 2.75574894E-6]> : tensor<16xf32>}> : () -> tensor<16xf32>
    %21 = "stablehlo.constant"() <{value = dense<[1.48729189E-8, 0.000000e+00, -4.60860106E-9, 1.40906877E-8, -1.48918433E-9, 1.1097015E-10, -4.15751669E-11, 6.298560e-11, 2.98885222E-11, 2.71651451E-12, 4.27655497E-13, -1.57696133E-12, 1.16013495E-14, -4.11633103E-13, 8.02972834E-15, 8.43790437E-14]> : tensor<16xf32>}> : () -> tensor<16xf32>
    %22 = "stablehlo.constant"() <{value = dense<[2.550000e-01, -1.000000e+00, 3.400000e-01, 3.700000e-01, 4.200000e-01, 4.200000e-01, 4.200000e-01, 4.200000e-01, 4.200000e-01, 4.200000e-01, 4.200000e-01, 4.200000e-01, 4.200000e-01, 4.200000e-01, 4.200000e-01, 4.200000e-01]> : tensor<16xf32>}> : () -> tensor<16xf32>
    %23 = "stablehlo.constant"() <{value = dense<[-1.38533652, 0.000000e+00, -2.234660e+00, -0.966047525, -2.10904527, -1.85305738, -2.02762246, -1.97070384, -2.00517678, -1.99477208, -2.00079918, -1.99919963, -2.0001061, -1.99989378, -2.0000124, -1.9999876]> : tensor<16xf32>}> : () -> tensor<16xf32>
    %24 = "stablehlo.constant"() <{value = dense<[2.67372108, 0.000000e+00, -0.104558013, 1.47233355, -0.0994995161, 0.15925236, -0.0272024628, 0.0297407601, -0.00516465073, 0.00524011673, -7.99042871E-4, 8.00676643E-4, -1.06171268E-4, 1.06197927E-4, -1.24548615E-5, 1.24457247E-5]> : tensor<16xf32>}> : () -> tensor<16xf32>
    %25 = "stablehlo.constant"() <{value = dense<[5.65496206, 0.000000e+00, -0.632970095, 1.32829309, -0.756576359, -0.495038867, -0.693450987, -0.636482954, -0.671820819, -0.661415874, -0.667466938, -0.665867149, -0.666774272, -0.666561901, -0.666680336, -0.66665554]> : tensor<16xf32>}> : () -> tensor<16xf32>
    %26 = "stablehlo.constant"() <{value = dense<[13.6487474, 0.000000e+00, 0.18435128, 2.66334176, -0.0802543088, 0.183989882, -0.0263557527, 0.0306188613, -0.00513932668, 0.00526309945, -7.983600e-04, 8.00992537E-4, -1.06074294E-4, 1.06123902E-4, -1.08104869E-5, 1.11924992E-5]> : tensor<16xf32>}> : () -> tensor<16xf32>
    %27 = "stablehlo.constant"() <{value = dense<[29.0560436, 0.000000e+00, -0.0475766957, 3.16822863, -0.470409244, -0.203508675, -0.425810963, -3.688310e-01, -4.050240e-01, -0.394625604, -0.400700718, -0.399102062, -0.400009692, -0.399797767, -3.999230e-01, -0.39989692]> : tensor<16xf32>}> : () -> tensor<16xf32>
    %28 = "stablehlo.constant"() <{value = dense<[64.692688, 0.000000e+00, 5.535060e-01, 4.82858515, -0.0605156571, 0.212788194, -0.0257291067, 0.0318717323, -0.00515836058, 0.00533373794, -8.04428709E-4, 8.080150e-04, -1.07942105E-4, 1.07877786E-4, -3.53875039E-5, 2.95385908E-5]> : tensor<16xf32>}> : () -> tensor<16xf32>
    %29 = "stablehlo.constant"() <{value = dense<[144.274414, 0.000000e+00, 0.502989888, 6.22517824, -0.33854869, -0.0589724258, -0.313833177, -0.255872041, -0.293304026, -0.282735527, -0.28885287, -0.287227511, -0.288137108, -0.287917346, -0.287951857, -2.879430e-01]> : tensor<16xf32>}> : () -> tensor<16xf32>
    %30 = "stablehlo.constant"() <{value = dense<[354.171173, 0.000000e+00, 0.874119758, 9.20790672, -0.0421104282, 0.194769889, -0.0219563879, 0.0279599521, -0.00452799257, 0.00470815646, -7.10393128E-4, 7.14876514E-4, -8.80396764E-5, 8.91314048E-5, 1.32301051E-4, -9.35434145E-5]> : tensor<16xf32>}> : () -> tensor<16xf32>
    %31 = "stablehlo.constant"() <{value = dense<[972.521484, 0.000000e+00, 0.829021215, 15.6274681, -0.230358541, -0.0118875364, -0.215895846, -0.168328941, -0.201411426, -0.192730859, -0.198401839, -0.19707121, -0.197927535, -0.197773159, -0.198337495, -0.198233053]> : tensor<16xf32>}> : () -> tensor<16xf32>
    %32 = "stablehlo.constant"() <{value = dense<[2111.91357, 0.000000e+00, 2.96750498, 24.9583759, -0.012698682, 0.470867515, -0.0385501981, 0.056485422, -0.00820949394, 0.00869482476, -0.00128752366, 0.00129581429, -1.87857018E-4, 1.85009369E-4, -3.45863868E-4, 2.53180886E-4]> : tensor<16xf32>}> : () -> tensor<16xf32>
    %33 = "stablehlo.constant"() <{value = dense<[2133.65771, 0.000000e+00, 3.87669849, 18.7148895, -0.289828926, 0.247943312, -0.340197712, -0.23934947, -0.304349959, -0.286053866, -0.295447946, -0.292626083, -0.293967903, -0.293548137, -0.292859882, -0.292959183]> : tensor<16xf32>}> : () -> tensor<16xf32>
    %34 = "stablehlo.constant"() <{value = dense<-2.600000e+00> : tensor<f32>}> : () -> tensor<f32>
    %35 = "stablehlo.broadcast_in_dim"(%34) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x128xf32>
    %36 = "stablehlo.compare"(%arg12, %35) <{compare_type = #stablehlo<comparison_type FLOAT>, comparison_direction = #stablehlo<comparison_direction GT>}> : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xi1>
    %37 = "stablehlo.constant"() <{value = dense<-2.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %38 = "stablehlo.broadcast_in_dim"(%37) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x128xf32>
    %39 = "stablehlo.compare"(%arg12, %38) <{compare_type = #stablehlo<comparison_type FLOAT>, comparison_direction = #stablehlo<comparison_direction LT>}> : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xi1>
    %40 = "stablehlo.and"(%36, %39) : (tensor<8x128xi1>, tensor<8x128xi1>) -> tensor<8x128xi1>
    %41 = "stablehlo.constant"() <{value = dense<-2.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %42 = "stablehlo.broadcast_in_dim"(%41) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x128xf32>
    %43 = "stablehlo.select"(%40, %42, %arg13) : (tensor<8x128xi1>, tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %44 = "stablehlo.subtract"(%arg12, %43) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %45 = "stablehlo.negate"(%43) : (tensor<8x128xf32>) -> tensor<8x128xf32>
    %46 = "stablehlo.convert"(%45) : (tensor<8x128xf32>) -> tensor<8x128xi32>
    %47 = "stablehlo.constant"() <{value = dense<2> : tensor<i32>}> : () -> tensor<i32>
    %48 = "stablehlo.broadcast_in_dim"(%47) <{broadcast_dimensions = array<i64>}> : (tensor<i32>) -> tensor<8x128xi32>
    %49 = "stablehlo.compare"(%46, %48) <{compare_type = #stablehlo<comparison_type SIGNED>, comparison_direction = #stablehlo<comparison_direction GE>}> : (tensor<8x128xi32>, tensor<8x128xi32>) -> tensor<8x128xi1>
    %50 = "stablehlo.constant"() <{value = dense<9> : tensor<i32>}> : () -> tensor<i32>
    %51 = "stablehlo.broadcast_in_dim"(%50) <{broadcast_dimensions = array<i64>}> : (tensor<i32>) -> tensor<8x128xi32>
    %52 = "stablehlo.compare"(%46, %51) <{compare_type = #stablehlo<comparison_type SIGNED>, comparison_direction = #stablehlo<comparison_direction LE>}> : (tensor<8x128xi32>, tensor<8x128xi32>) -> tensor<8x128xi1>
    %53 = "stablehlo.and"(%49, %52) : (tensor<8x128xi1>, tensor<8x128xi1>) -> tensor<8x128xi1>
    %54 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %55 = "stablehlo.broadcast_in_dim"(%54) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x128xf32>
    %56 = "stablehlo.compare"(%44, %55) <{compare_type = #stablehlo<comparison_type FLOAT>, comparison_direction = #stablehlo<comparison_direction GT>}> : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xi1>
    %57 = "stablehlo.constant"() <{value = dense<1> : tensor<i32>}> : () -> tensor<i32>
    %58 = "stablehlo.broadcast_in_dim"(%57) <{broadcast_dimensions = array<i64>}> : (tensor<i32>) -> tensor<8x128xi32>
    %59 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
    %60 = "stablehlo.broadcast_in_dim"(%59) <{broadcast_dimensions = array<i64>}> : (tensor<i32>) -> tensor<8x128xi32>
    %61 = "stablehlo.select"(%56, %58, %60) : (tensor<8x128xi1>, tensor<8x128xi32>, tensor<8x128xi32>) -> tensor<8x128xi32>
    %62 = "stablehlo.constant"() <{value = dense<2> : tensor<i32>}> : () -> tensor<i32>
    %63 = "stablehlo.broadcast_in_dim"(%62) <{broadcast_dimensions = array<i64>}> : (tensor<i32>) -> tensor<8x128xi32>
    %64 = "stablehlo.subtract"(%46, %63) : (tensor<8x128xi32>, tensor<8x128xi32>) -> tensor<8x128xi32>
    %65 = "stablehlo.constant"() <{value = dense<2> : tensor<i32>}> : () -> tensor<i32>
    %66 = "stablehlo.broadcast_in_dim"(%65) <{broadcast_dimensions = array<i64>}> : (tensor<i32>) -> tensor<8x128xi32>
    %67 = "stablehlo.multiply"(%66, %64) : (tensor<8x128xi32>, tensor<8x128xi32>) -> tensor<8x128xi32>
    %68 = "stablehlo.add"(%67, %61) : (tensor<8x128xi32>, tensor<8x128xi32>) -> tensor<8x128xi32>
    %69 = "stablehlo.constant"() <{value = dense<1> : tensor<i32>}> : () -> tensor<i32>
    %70 = "stablehlo.broadcast_in_dim"(%69) <{broadcast_dimensions = array<i64>}> : (tensor<i32>) -> tensor<8x128xi32>
    %71 = "stablehlo.select"(%53, %68, %70) : (tensor<8x128xi1>, tensor<8x128xi32>, tensor<8x128xi32>) -> tensor<8x128xi32>
    %72 = "stablehlo.broadcast_in_dim"(%71) <{broadcast_dimensions = array<i64: 0, 1>}> : (tensor<8x128xi32>) -> tensor<8x128x1xi32>
    %73 = "stablehlo.gather"(%20, %72) <{dimension_numbers = #stablehlo.gather<collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 2>, indices_are_sorted = false, slice_sizes = array<i64: 1>}> : (tensor<16xf32>, tensor<8x128x1xi32>) -> tensor<8x128xf32>
    %74 = "stablehlo.gather"(%21, %72) <{dimension_numbers = #stablehlo.gather<collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 2>, indices_are_sorted = false, slice_sizes = array<i64: 1>}> : (tensor<16xf32>, tensor<8x128x1xi32>) -> tensor<8x128xf32>
    %75 = "stablehlo.gather"(%22, %72) <{dimension_numbers = #stablehlo.gather<collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 2>, indices_are_sorted = false, slice_sizes = array<i64: 1>}> : (tensor<16xf32>, tensor<8x128x1xi32>) -> tensor<8x128xf32>
    %76 = "stablehlo.gather"(%23, %72) <{dimension_numbers = #stablehlo.gather<collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 2>, indices_are_sorted = false, slice_sizes = array<i64: 1>}> : (tensor<16xf32>, tensor<8x128x1xi32>) -> tensor<8x128xf32>
    %77 = "stablehlo.gather"(%24, %72) <{dimension_numbers = #stablehlo.gather<collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 2>, indices_are_sorted = false, slice_sizes = array<i64: 1>}> : (tensor<16xf32>, tensor<8x128x1xi32>) -> tensor<8x128xf32>
    %78 = "stablehlo.gather"(%25, %72) <{dimension_numbers = #stablehlo.gather<collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 2>, indices_are_sorted = false, slice_sizes = array<i64: 1>}> : (tensor<16xf32>, tensor<8x128x1xi32>) -> tensor<8x128xf32>
    %79 = "stablehlo.gather"(%26, %72) <{dimension_numbers = #stablehlo.gather<collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 2>, indices_are_sorted = false, slice_sizes = array<i64: 1>}> : (tensor<16xf32>, tensor<8x128x1xi32>) -> tensor<8x128xf32>
    %80 = "stablehlo.gather"(%27, %72) <{dimension_numbers = #stablehlo.gather<collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 2>, indices_are_sorted = false, slice_sizes = array<i64: 1>}> : (tensor<16xf32>, tensor<8x128x1xi32>) -> tensor<8x128xf32>
    %81 = "stablehlo.gather"(%28, %72) <{dimension_numbers = #stablehlo.gather<collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 2>, indices_are_sorted = false, slice_sizes = array<i64: 1>}> : (tensor<16xf32>, tensor<8x128x1xi32>) -> tensor<8x128xf32>
    %82 = "stablehlo.gather"(%29, %72) <{dimension_numbers = #stablehlo.gather<collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 2>, indices_are_sorted = false, slice_sizes = array<i64: 1>}> : (tensor<16xf32>, tensor<8x128x1xi32>) -> tensor<8x128xf32>
    %83 = "stablehlo.gather"(%30, %72) <{dimension_numbers = #stablehlo.gather<collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 2>, indices_are_sorted = false, slice_sizes = array<i64: 1>}> : (tensor<16xf32>, tensor<8x128x1xi32>) -> tensor<8x128xf32>
    %84 = "stablehlo.gather"(%31, %72) <{dimension_numbers = #stablehlo.gather<collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 2>, indices_are_sorted = false, slice_sizes = array<i64: 1>}> : (tensor<16xf32>, tensor<8x128x1xi32>) -> tensor<8x128xf32>
    %85 = "stablehlo.gather"(%32, %72) <{dimension_numbers = #stablehlo.gather<collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 2>, indices_are_sorted = false, slice_sizes = array<i64: 1>}> : (tensor<16xf32>, tensor<8x128x1xi32>) -> tensor<8x128xf32>
    %86 = "stablehlo.gather"(%33, %72) <{dimension_numbers = #stablehlo.gather<collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 2>, indices_are_sorted = false, slice_sizes = array<i64: 1>}> : (tensor<16xf32>, tensor<8x128x1xi32>) -> tensor<8x128xf32>
    %87 = "stablehlo.subtract"(%44, %73) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %88 = "stablehlo.add"(%44, %73) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %89 = "stablehlo.constant"() <{value = dense<1.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %90 = "stablehlo.broadcast_in_dim"(%89) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x128xf32>
    %91 = "stablehlo.divide"(%90, %88) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %92 = "stablehlo.subtract"(%87, %74) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %93 = "stablehlo.multiply"(%92, %91) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %94 = "stablehlo.multiply"(%93, %88) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %95 = "stablehlo.subtract"(%87, %94) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %96 = "stablehlo.constant"() <{value = dense<1.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %97 = "stablehlo.broadcast_in_dim"(%96) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x128xf32>
    %98 = "stablehlo.add"(%97, %93) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %99 = "stablehlo.multiply"(%74, %98) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %100 = "stablehlo.subtract"(%95, %99) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %101 = "stablehlo.multiply"(%100, %91) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %102 = "stablehlo.add"(%93, %101) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %103 = "stablehlo.abs"(%102) : (tensor<8x128xf32>) -> tensor<8x128xf32>
    %104 = "stablehlo.compare"(%103, %75) <{compare_type = #stablehlo<comparison_type FLOAT>, comparison_direction = #stablehlo<comparison_direction LE>}> : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xi1>
    %105 = "stablehlo.constant"() <{value = dense<0.000000e+00> : tensor<f32>}> : () -> tensor<f32>
    %106 = "stablehlo.broadcast_in_dim"(%105) <{broadcast_dimensions = array<i64>}> : (tensor<f32>) -> tensor<8x128xf32>
    %107 = "stablehlo.select"(%104, %102, %106) : (tensor<8x128xi1>, tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %108 = "func.call"(%107, %76, %77, %78, %79, %80, %81, %82, %83, %84, %85, %86) <{callee = @_horner_4}> : (tensor<8x128xf32>, tensor<8x128xf32>, tensor<8x128xf32>, tensor<8x128xf32>, tensor<8x128xf32>, tensor<8x128xf32>, tensor<8x128xf32>, tensor<8x128xf32>, tensor<8x128xf32>, tensor<8x128xf32>, tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %109 = "stablehlo.multiply"(%107, %108) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    "func.return"(%104, %109) : (tensor<8x128xi1>, tensor<8x128xf32>) -> ()
  }) : () -> ()
  "func.func"() <{function_type = (tensor<8x128xf32>, tensor<8x128xf32>, tensor<8x128xf32>, tensor<8x128xf32>, tensor<8x128xf32>, tensor<8x128xf32>, tensor<8x128xf32>, tensor<8x128xf32>, tensor<8x128xf32>, tensor<8x128xf32>, tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>, sym_name = "_horner_4", sym_visibility = "private"}> ({
  ^bb0(%arg0: tensor<8x128xf32>, %arg1: tensor<8x128xf32>, %arg2: tensor<8x128xf32>, %arg3: tensor<8x128xf32>, %arg4: tensor<8x128xf32>, %arg5: tensor<8x128xf32>, %arg6: tensor<8x128xf32>, %arg7: tensor<8x128xf32>, %arg8: tensor<8x128xf32>, %arg9: tensor<8x128xf32>, %arg10: tensor<8x128xf32>, %arg11: tensor<8x128xf32>):
    %0 = "stablehlo.multiply"(%arg11, %arg0) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %1 = "stablehlo.add"(%0, %arg10) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %2 = "stablehlo.multiply"(%1, %arg0) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %3 = "stablehlo.add"(%2, %arg9) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %4 = "stablehlo.multiply"(%3, %arg0) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %5 = "stablehlo.add"(%4, %arg8) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %6 = "stablehlo.multiply"(%5, %arg0) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %7 = "stablehlo.add"(%6, %arg7) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %8 = "stablehlo.multiply"(%7, %arg0) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %9 = "stablehlo.add"(%8, %arg6) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %10 = "stablehlo.multiply"(%9, %arg0) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %11 = "stablehlo.add"(%10, %arg5) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %12 = "stablehlo.multiply"(%11, %arg0) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %13 = "stablehlo.add"(%12, %arg4) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %14 = "stablehlo.multiply"(%13, %arg0) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %15 = "stablehlo.add"(%14, %arg3) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %16 = "stablehlo.multiply"(%15, %arg0) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %17 = "stablehlo.add"(%16, %arg2) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %18 = "stablehlo.multiply"(%17, %arg0) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    %19 = "stablehlo.add"(%18, %arg1) : (tensor<8x128xf32>, tensor<8x128xf32>) -> tensor<8x128xf32>
    "func.return"(%19) : (tensor<8x128xf32>) -> ()
  }) : () -> ()
}) {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} : () -> ()
